// The `_np` file actions are declared only with _GNU_SOURCE, which a Swift module cannot define.
#define _GNU_SOURCE
#include <spawn.h>

#include "CChildProcess.h"

int CChildProcess_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int CChildProcess_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
