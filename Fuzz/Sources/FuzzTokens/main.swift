import FuzzDriver
import Glibc

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))
