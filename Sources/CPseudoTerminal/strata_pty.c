// A process in a pseudo-terminal: forkpty and execve, in C so that nothing but async-signal-safe
// calls runs between fork and exec (Swift code in a forked child of a threaded process may not).
#define _GNU_SOURCE
#include "strata_pty.h"
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int strata_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                     unsigned short rows, unsigned short cols, pid_t *pid) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = rows;
    size.ws_col = cols;
    int master = -1;
    pid_t child = forkpty(&master, NULL, NULL, &size);
    if (child < 0) return -1;
    if (child == 0) {
        // Default signal dispositions and an empty mask: the parent may block or ignore some.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int s = 1; s < 32; s++) {
            if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
        }
        if (directory && chdir(directory) != 0) _exit(126);
        execve(path, argv, envp);
        _exit(127);
    }
    int flags = fcntl(master, F_GETFL);
    if (flags >= 0) fcntl(master, F_SETFL, flags | O_NONBLOCK);
    fcntl(master, F_SETFD, FD_CLOEXEC);
    *pid = child;
    return master;
}

pid_t strata_pty_foreground_group(int master) { return tcgetpgrp(master); }
