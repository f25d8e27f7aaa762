# AX_CFLAG_TRY(FLAG, ACTION-IF-OK)
# Runs ACTION-IF-OK when the C compiler accepts FLAG without a warning.
AC_DEFUN([AX_CFLAG_TRY], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  ax_cflag_save=$CFLAGS
  CFLAGS="$CFLAGS -Werror $1"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); $2],
    [AC_MSG_RESULT([no])])
  CFLAGS=$ax_cflag_save
])
