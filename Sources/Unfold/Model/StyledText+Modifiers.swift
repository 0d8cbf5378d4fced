extension StyledText {
  /// The text with a trait added to every run.
  ///
  ///     let name = StyledText(plain: user.name).bold()
  ///     TextSource("Hello, \(name)!")   // the name stays bold wherever the translation puts it
  public func adding(_ traits: Style.Traits) -> StyledText {
    StyledText(
      string,
      runs: runs.map { run in
        var style = run.style
        style.traits.formUnion(traits)
        return Run(length: run.length, style: style)
      })
  }

  /// The text in bold.
  public func bold() -> StyledText { adding(.bold) }
  /// The text in italics.
  package func italic() -> StyledText { adding(.italic) }
  /// The text struck through.
  package func strikethrough() -> StyledText { adding(.strikethrough) }
  /// The text as code.
  package func code() -> StyledText { adding(.code) }

  /// The text as a link to `destination` (renderers draw it only for allowed schemes, see `LinkPolicy`).
  public func link(_ destination: String) -> StyledText {
    StyledText(
      string,
      runs: runs.map { run in
        var style = run.style
        style.link = destination
        return Run(length: run.length, style: style)
      })
  }
}
