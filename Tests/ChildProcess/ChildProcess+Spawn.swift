import CChildProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// Signals whose disposition the child resets to the default: an ignored one (SIGPIPE, as
    /// the Swift runtime sets it) would otherwise stay ignored across `exec`.
    static let signalsWithDefaultDisposition: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD, SIGTSTP,
        SIGTTIN, SIGTTOU, SIGURG, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGWINCH,
    ]

    /// `posix_spawn`s `configuration` and returns the child's ID; closes the parent's copies of
    /// the child's pipe ends once it runs.
    static func spawn(_ configuration: Configuration) throws -> pid_t {
        guard let executableURL = configuration.executableURL else {
            throw ChildProcessError(path: "", operation: "spawn", errno: EINVAL, detail: "no executableURL")
        }
        let path = executableURL.path

        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        defer { actions.deallocate() }
        try check(posix_spawn_file_actions_init(actions), "posix_spawn_file_actions_init", path)
        defer { posix_spawn_file_actions_destroy(actions) }

        // Each source goes through a copy at 3 or above, so that no `dup2` onto 0, 1 or 2
        // overwrites the source of another (stdout and stderr swapped, say). `closefrom` then
        // closes the copies in the child; the parent closes its own once the child runs.
        var copies: [Int32] = []
        defer { for copy in copies { close(copy) } }
        let standard: [(target: Int32, io: StandardIO)] = [
            (STDIN_FILENO, configuration.standardInput),
            (STDOUT_FILENO, configuration.standardOutput),
            (STDERR_FILENO, configuration.standardError),
        ]
        for (target, io) in standard {
            let source: Int32
            switch io {
            case .nullDevice:
                source = open("/dev/null", O_RDWR | O_CLOEXEC)
                guard source >= 0 else { throw ChildProcessError(path: "/dev/null", operation: "open", errno: errno) }
                copies.append(source)
            case .pipe(let pipe):
                let end = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                source = try copy(end.fileDescriptor, path)
                copies.append(source)
            case .fileHandle(let handle):
                let descriptor = handle.fileDescriptor
                if descriptor == target { continue }  // Inherited as it is.
                source = try copy(descriptor, path)
                copies.append(source)
            }
            try check(posix_spawn_file_actions_adddup2(actions, source, target), "posix_spawn_file_actions_adddup2", path)
        }
        try check(CChildProcess_addclosefrom(actions, 3), "posix_spawn_file_actions_addclosefrom_np", path)
        if let directory = configuration.currentDirectoryURL {
            try check(CChildProcess_addchdir(actions, directory.path), "posix_spawn_file_actions_addchdir_np", path)
        }

        let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
        defer { attributes.deallocate() }
        try check(posix_spawnattr_init(attributes), "posix_spawnattr_init", path)
        defer { posix_spawnattr_destroy(attributes) }
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
        try check(posix_spawnattr_setflags(attributes, Int16(flags)), "posix_spawnattr_setflags", path)
        try check(posix_spawnattr_setpgroup(attributes, 0), "posix_spawnattr_setpgroup", path)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in configuration.blockedSignals { sigaddset(&mask, signal) }
        try check(posix_spawnattr_setsigmask(attributes, &mask), "posix_spawnattr_setsigmask", path)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signalsWithDefaultDisposition { sigaddset(&defaults, signal) }
        try check(posix_spawnattr_setsigdefault(attributes, &defaults), "posix_spawnattr_setsigdefault", path)

        let environment = configuration.environment ?? ProcessInfo.processInfo.environment
        var pid = pid_t()
        let result = withCStrings([path] + (configuration.arguments ?? [])) { argv in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, path, actions, attributes, argv, envp)
            }
        }
        try check(result, "posix_spawn", path)

        // As Foundation does: the child holds its ends of the pipes now, and a reader must see
        // end of file once the child (and whatever inherited them) exited.
        var closed = Set<ObjectIdentifier>()
        for (target, io) in standard {
            guard case .pipe(let pipe) = io else { continue }
            let end = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            if closed.insert(ObjectIdentifier(end)).inserted { try? end.close() }
        }
        return pid
    }

    /// A close-on-exec copy of `descriptor` numbered 3 or above.
    private static func copy(_ descriptor: Int32, _ path: String) throws -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw ChildProcessError(path: path, operation: "fcntl(F_DUPFD_CLOEXEC, \(descriptor))", errno: errno) }
        return copy
    }

    private static func check(_ result: Int32, _ operation: String, _ path: String) throws {
        guard result == 0 else { throw ChildProcessError(path: path, operation: operation, errno: result) }
    }

    /// Calls `body` with a NULL-terminated array of C strings, freed afterwards.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
