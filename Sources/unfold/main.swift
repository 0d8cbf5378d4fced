import Foundation
import Unfold

/// Parses the arguments, validates them, and runs the command.
func main() -> Int32 {
  let arguments: Arguments
  do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.help {
      print(Arguments.usage)
      return 0
    }
    if arguments.version {
      print("unfold \(Unfold.version)")
      return 0
    }
    try arguments.validate()
  } catch {
    return fail(error.message, status: 2)
  }
  return Command(arguments: arguments, environment: ProcessInfo.processInfo.environment).run()
}

exit(main())
