import Foundation
import Unfold

/// Helpers shared by the test targets.
public enum TestSupport {
  /// The repository's root folder, found from this file's path.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A `+`/`-` line diff of two texts, empty when they are equal.
  public static func lineDiff(expected: String, actual: String) -> String {
    guard expected != actual else { return "" }
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for change in new.difference(from: old) {
      switch change {
      case .remove(let offset, let line, _): lines.append("-\(offset + 1): \(line)")
      case .insert(let offset, let line, _): lines.append("+\(offset + 1): \(line)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The plain text of a truncated text's paragraph fragments (labels, ellipsis and gaps left out).
  public static func textFragments(of text: TruncatedText) -> String {
    text.lines.flatMap(\.fragments).filter { $0.role == .text }.map(\.text).joined()
  }

  /// The text without any whitespace.
  public static func withoutWhitespace(_ text: some StringProtocol) -> String {
    String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
  }

  /// Broken invariants of a truncated text, one description each (empty when all hold).
  ///
  /// - collapsed: at most `lineLimit` lines; expanded: the text fragments hold every non-space character
  ///   of `source`, in order (soft hyphens aside), or in any order when not `inOrder` (a document's table, whose
  ///   wrapped cells interleave);
  /// - no line wider than `width` unless it holds a single cluster, or is a cut line whose ellipsis and
  ///   label alone overflow;
  /// - `isTruncated` exactly when the expanded text has more lines than the limit.
  public static func invariantViolations(
    _ text: TruncatedText, source: StyledText, lineLimit: Int, expandedLineCount: Int, inOrder: Bool = true
  ) -> [String] {
    var problems: [String] = []
    let limit = max(1, lineLimit)
    // A toggle on a line of its own (placement `below`) is not a line of text.
    let textLines = text.lines.filter { !($0.fragments.count == 1 && $0.fragments[0].isToggle) }
    if text.state == .collapsed && textLines.count > limit {
      problems.append("collapsed shows \(textLines.count) lines, limit \(limit)")
    }
    if text.isTruncated != (expandedLineCount > limit) {
      problems.append("isTruncated \(text.isTruncated) but \(expandedLineCount) lines expanded, limit \(limit)")
    }
    for (index, line) in text.lines.enumerated() where line.width > text.width {
      let paragraph = line.fragments.filter { $0.role == .text }.map(\.text).joined()
      let chrome = line.fragments.filter { $0.role != .text }.reduce(0) { $0 + $1.width }
      let isSingleCluster = paragraph.count <= 1 && chrome == 0
      let isLabelOnly = paragraph.isEmpty && chrome > text.width
      if !isSingleCluster && !isLabelOnly {
        problems.append("line \(index + 1) is \(line.width) wide, width \(text.width)")
      }
    }
    if text.state == .expanded {
      let shown = withoutWhitespace(textFragments(of: text))
      // A soft hyphen is never drawn as such (a hyphen fragment stands for it at a break).
      let wanted = withoutWhitespace(source.string).replacingOccurrences(of: "\u{00AD}", with: "")
      if inOrder ? shown != wanted : shown.sorted() != wanted.sorted() {
        problems.append("expanded text lost characters: \(shown.debugDescription)")
      }
    }
    return problems
  }
}

/// A piece of work on a thread of its own, for a test that does something else meanwhile (prepares the next page
/// while a browser draws this one); ``value()`` waits for it.
public final class Background<T>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var result: Result<T, any Error>?

  /// Starts `body` on a new thread.
  ///
  /// What it touches, nothing else may touch until ``value()`` returns.
  public init(_ body: @escaping () throws -> T) {
    nonisolated(unsafe) let body = body
    let thread = Thread { [self] in
      result = Result(catching: body)
      done.signal()
    }
    thread.stackSize = 16 << 20
    thread.start()
  }

  /// What `body` returned, once it has (or the error it threw); once only.
  public func value() throws -> T {
    done.wait()
    return try result!.get()
  }
}
