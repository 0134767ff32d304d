#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's driver, from the runtime that `-sanitize=fuzzer` links (LLVM 11 and later). It
// calls `LLVMFuzzerInitialize` and then `LLVMFuzzerTestOneInput` (FuzzEntry.swift), as
// libFuzzer's own `main` does in a debug build.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in FuzzEntry.run(data, size) }))
