/*
 * curses.h - the one place that chooses which curses header to include.
 *
 * ncursesw is required (wide characters, wcwidth-aware cells); configure
 * has checked for its header under both of the usual names. Include
 * "config.h" before this file.
 */
#ifndef TUI_CURSES_H
#define TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#elif defined(HAVE_CURSES_H)
#include <curses.h>
#else
#error "no curses header: configure did not find ncursesw"
#endif

#endif /* TUI_CURSES_H */
