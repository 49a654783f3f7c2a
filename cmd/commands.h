/* One entry point per subcommand, each in cmd/<name>.c. */
#ifndef VP_COMMANDS_H
#define VP_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_chart(int argc, char **argv);

#endif
