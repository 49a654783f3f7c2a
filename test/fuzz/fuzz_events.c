/* Event specs as vmprof record -e takes them. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/record/events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	struct vp_event_spec *ev;
	size_t n;
	struct vp_error err = { 0 };

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (vp_events_parse(spec, &ev, &n, &err) == 0)
		free(ev);
	free(spec);
	return 0;
}
