// The `strata` executable: the command line StrataCLI defines, run on this process's arguments.
import StrataCLI

StrataCommand.main()
