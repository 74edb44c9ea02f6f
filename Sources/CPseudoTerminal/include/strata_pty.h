#ifndef STRATA_PTY_H
#define STRATA_PTY_H
#include <sys/types.h>

/// Starts `path` with `argv` and `envp` in a new session whose controlling terminal is a new
/// pseudo-terminal of `rows` × `cols`, in `directory` (NULL: the current one). Returns the
/// master side's file descriptor (non-blocking, close-on-exec) and sets `*pid`; -1 with errno
/// set when the terminal or the process could not be made. Between fork and exec the child
/// calls only async-signal-safe functions.
int strata_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                     unsigned short rows, unsigned short cols, pid_t *pid);

/// The terminal's foreground process group (-1 when there is none).
pid_t strata_pty_foreground_group(int master);
#endif
