import Dispatch
import FuzzTargets

#if canImport(Glibc)
import Glibc
#endif

/// What libFuzzer calls, whichever `main` runs: ours (`main.swift`, which starts libFuzzer's
/// driver), or libFuzzer's own, which a debug build links since SwiftPM renames ours there. So
/// nothing here relies on `main.swift`'s top-level code having run.
enum FuzzEntry {
    /// The target, chosen by the environment: `FUZZ_TARGET=connection` fuzzes a whole HTTP/2
    /// server connection (`ConnectionFuzzTarget`), `FUZZ_TARGET=http1` an HTTP/1.1 one
    /// (`HTTP1FuzzTarget`); anything else, the deframer and requests' JSON (`FuzzTargets`).
    static let chosenTarget = getenv("FUZZ_TARGET").map { String(cString: $0) }

    /// Prepares the chosen target, once, before the first input.
    static func initialize() {
        guard chosenTarget == "connection" || chosenTarget == "http1" else { return }
        // Detached: the caller waits here on a thread that is not one of Swift's concurrency
        // threads, so the task runs meanwhile.
        let prepared = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await ConnectionFuzzTarget.prepare()
            } catch {
                fatalError("cannot prepare the connection target: \(error)")
            }
            prepared.signal()
        }
        prepared.wait()
    }

    /// One input: a broken promise of the code under test stops the process, so libFuzzer keeps
    /// the input as a crasher.
    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            switch chosenTarget {
            case "connection": try ConnectionFuzzTarget.run(input)
            case "http1": try HTTP1FuzzTarget.run(input)
            default: try FuzzTargets.run(input)
            }
        } catch {
            fatalError("\(error)")
        }
        return 0
    }
}

@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    FuzzEntry.initialize()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntry.run(data, size)
}
