#include "config.h"
#include "curses.h"
#include "tui.h"
struct view *
view_preview_new(struct app *a, uint64_t i)
{
	(void)i;
	return view_help_new(a);
}
