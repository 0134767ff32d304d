import Dispatch
import FuzzTargets

#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's driver, from the runtime that `-sanitize=fuzzer` links (LLVM 11 and later).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target, chosen by the environment: `FUZZ_TARGET=connection` fuzzes a whole HTTP/2 server
/// connection (`ConnectionFuzzTarget`), `FUZZ_TARGET=http1` an HTTP/1.1 one (`HTTP1FuzzTarget`);
/// anything else, the deframer and requests' JSON (`FuzzTargets`).
let chosenTarget = getenv("FUZZ_TARGET").map { String(cString: $0) }
let fuzzesConnection = chosenTarget == "connection" || chosenTarget == "http1"

func target(_ input: [UInt8]) throws(FuzzFailure) {
    switch chosenTarget {
    case "connection": try ConnectionFuzzTarget.run(input)
    case "http1": try HTTP1FuzzTarget.run(input)
    default: try FuzzTargets.run(input)
    }
}

if fuzzesConnection {
    // Detached: this top-level code runs on the main actor, which waits here; the main thread is
    // not one of Swift's concurrency threads, so the task runs meanwhile.
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
let fuzzOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    do {
        try target(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    } catch {
        fatalError("\(error)")
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
