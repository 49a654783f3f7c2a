/* The progress line: what lib/ counts (lib/util/progress.h) drawn as one
 * line on stderr, redrawn in place, when stderr is a terminal and --quiet
 * was not given. Reading shows bytes, rate and time left once the inputs
 * hold 100 MB or more; recording shows time, samples and lost so far. */
#ifndef VP_CMD_PROGRESS_H
#define VP_CMD_PROGRESS_H

/* --quiet: no line, whatever stderr is. */
void vp_cmd_progress_quiet(void);
/* Start drawing for this command (a thread that wakes every tenth of a
 * second); nothing when stderr is not a terminal or after --quiet. */
void vp_cmd_progress_start(const char *cmd);
/* Stop, drawing the line once if it was due and never drawn, and erase it:
 * before anything goes to standard output. */
void vp_cmd_progress_stop(void);
/* Erase the line for a message (warnings, errors); the next tick redraws. */
void vp_cmd_progress_clear(void);

#endif
