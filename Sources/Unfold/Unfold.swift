/// The version of the Unfold library and the `unfold` command.
public let version = "0.1.0"
