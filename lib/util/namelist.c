/* Lists of names (see namelist.h). */
#include "namelist.h"

#include <string.h>

int vp_names_want(const char *const *names, const char *name)
{
	if (!names)
		return 1;
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}
