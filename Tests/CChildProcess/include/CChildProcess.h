#ifndef CCHILDPROCESS_H
#define CCHILDPROCESS_H

#include <spawn.h>

/// `posix_spawn_file_actions_addchdir_np`: the child changes to `path` before it executes.
/// Returns 0 or an errno value.
int CChildProcess_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from `from` up
/// (glibc 2.34 and later). Returns 0 or an errno value.
int CChildProcess_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
