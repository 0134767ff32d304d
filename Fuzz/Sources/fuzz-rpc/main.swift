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

/// One input: a broken promise of the code under test stops the process, so libFuzzer keeps
/// the input as a crasher.
let fuzzOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    do {
        try FuzzTargets.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    } catch {
        fatalError("\(error)")
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
