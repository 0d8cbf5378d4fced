extension TruncatedText {
  /// A stable, human-readable dump: a header, then each line with its width and text, then its fragments
  /// with their widths, roles and styles, and last any diagnostic (a value out of range, clamped).
  ///
  /// See <doc:TestingTruncation>.
  ///
  /// collapsed, truncated, 5 lines expanded, width 20 cells
  /// 1 (19) "The quick brown fox"
  /// 4 text plain "The "
  /// 5 text bold "quick"
  public func debugDump() -> String {
    let count = lineCount.map { "\($0) \($0 == 1 ? "line" : "lines") expanded" } ?? "line count not known"
    var dump = "\(state.rawValue), \(isTruncated ? "truncated" : "not truncated"), \(count), width \(width) \(unit)\n"
    for (index, line) in lines.enumerated() {
      dump += "\(index + 1) (\(line.width)) \(line.text.quotedForDump)\n"
      for fragment in line.fragments {
        dump += "  \(fragment.width) \(fragment.role.rawValue) \(fragment.style) \(fragment.text.quotedForDump)\n"
      }
    }
    for diagnostic in diagnostics { dump += "diagnostic \(diagnostic.kind.rawValue): \(diagnostic.message)\n" }
    return dump
  }
}
