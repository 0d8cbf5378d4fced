/// The classes of input on which cmark-gfm 0.29.0.gfm.6 takes polynomial time: upstream's pathological
/// tests and long paragraphs mixing emphasis and links, each generated at a size in bytes (shared by the
/// slow-input tests and the benchmark).
public enum SlowInputs {
  /// Each class's name and generator.
  public static let classes: [(name: String, make: @Sendable (Int) -> String)] = [
    ("![[]() repeated", { String(repeating: "![[]()", count: $0 / 6) }),
    (
      "emphasis and links in one paragraph",
      { String(repeating: "lorem _ipsum_ dolor [x](https://e.com/x) ", count: $0 / 42) }
    ),
    (
      "strikethrough and links in one paragraph",
      { String(repeating: "lorem ~~ipsum~~ dolor [x](https://e.com/x) ", count: $0 / 43) }
    ),
    ("link openers", { String(repeating: "[a", count: $0 / 2) }),
    ("nested brackets", { String(repeating: "[", count: $0 / 2) + "a" + String(repeating: "]", count: $0 / 2) }),
    (
      "emphasis runs",
      { String(repeating: "*a **a ", count: $0 / 14) + "b" + String(repeating: " a** a*", count: $0 / 14) }
    ),
    ("underscores", { String(repeating: "a_ ", count: $0 / 3) }),
    ("unclosed link destinations", { String(repeating: "[ (](", count: $0 / 5) }),
    (
      "backtick runs",
      { size in
        var text = "e"
        var run = 1
        while text.utf8.count < size {
          text += String(repeating: "`", count: run) + "e"
          run = run % 500 + 1
        }
        return text
      }
    ),
    ("entity-like runs", { String(repeating: "&#", count: $0 / 2) }),
    ("image openers", { String(repeating: "![p", count: $0 / 3) }),
    ("HTML openers", { "</" + String(repeating: "<!--", count: $0 / 4) }),
  ]
}
