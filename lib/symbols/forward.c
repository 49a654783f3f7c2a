/* perf's perf_event__process_mmap/comm/fork: the stock tool callbacks that
 * hand a walk's MMAP, COMM and FORK records to a session, shared by every
 * walker that resolves addresses (report, folded stacks, portable symbols). */
#include "session.h"

#include <errno.h>

int vp_session_process_mmap(void *ctx, const struct vp_mmap_event *m)
{
	struct vp_session_client *c = ctx;

	return vp_session_mmap(c->session, m) < 0 ? vp_errorf(c->err, -ENOMEM, "out of memory") : 0;
}

int vp_session_process_comm(void *ctx, const struct vp_comm_event *e)
{
	struct vp_session_client *c = ctx;

	return vp_session_comm(c->session, e) < 0 ? vp_errorf(c->err, -ENOMEM, "out of memory") : 0;
}

int vp_session_process_fork(void *ctx, const struct vp_task_event *t)
{
	struct vp_session_client *c = ctx;

	return vp_session_fork(c->session, t) < 0 ? vp_errorf(c->err, -ENOMEM, "out of memory") : 0;
}

void vp_session_tool(struct vp_perf_tool *tool)
{
	tool->mmap = vp_session_process_mmap;
	tool->comm = vp_session_process_comm;
	tool->fork = vp_session_process_fork;
}
