import Foundation
import Unfold

// The feed example: a static page of the comments in comments.txt, each one fragment that shows the lines a reader
// sees in three lines at whatever width its column takes, from a small phone's to a desktop's, with "Read more"
// exactly when the text goes on. The fragments share one stylesheet (unfold.css), and the font files are cut to
// the characters the page draws (fonts/).
//
//     swift run unfold-feed site && python3 -m http.server --directory site
//
// Arguments: the folder to write (made if missing), and the comments (default: comments.txt next to this file).

/// A comment of the feed: who wrote it, in which language, and its text (inline markdown).
struct Comment {
  var author: String
  var language: String
  var text: String
}

/// The comments of `text`: each starts with a line `@Name language`, its text is the lines up to the next.
func comments(in text: String, file: String) throws -> [Comment] {
  var comments: [Comment] = []
  for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if line.hasPrefix("@") {
      let words = line.dropFirst().split(separator: " ")
      guard words.count >= 2 else { throw Failure("\(file):\(number + 1): a comment starts with \"@Name language\"") }
      comments.append(
        Comment(author: words.dropLast().joined(separator: " "), language: String(words.last!), text: ""))
    } else if !comments.isEmpty {
      comments[comments.count - 1].text += (comments[comments.count - 1].text.isEmpty ? "" : "\n") + line
    } else if !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
      throw Failure("\(file):\(number + 1): text before the first \"@Name language\" line")
    }
  }
  return comments.map {
    Comment(author: $0.author, language: $0.language, text: $0.text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// A failure, said in one line.
struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `text` escaped for HTML text and attribute values.
func escaped(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// The page's own rules: a column that is the whole width of a phone and at most 680 px on a desktop.
let pageStyle = """
  *,*::before,*::after{box-sizing:border-box}
  body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.4 system-ui,sans-serif}
  main{max-width:760px;margin:0 auto;padding:16px 12px}
  h1{font-size:20px;margin:8px 4px 16px}
  ol{list-style:none;margin:0;padding:0}
  li{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:12px 16px;margin:0 0 12px}
  header{display:flex;align-items:center;gap:8px;margin:0 0 6px;font-size:14px;color:#4b5563}
  header b{color:#111827}
  .avatar{width:28px;height:28px;border-radius:50%;background:#c7d2fe;color:#3730a3;display:grid;place-items:center;
  font-weight:600}
  """

func main() throws {
  let arguments = CommandLine.arguments.dropFirst()
  guard let output = arguments.first, arguments.count <= 2 else {
    throw Failure("usage: unfold-feed FOLDER [COMMENTS]")
  }
  let source =
    arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("comments.txt").path
  guard let data = FileManager.default.contents(atPath: source) else { throw Failure("\(source): cannot read it") }
  let feed = try comments(in: String(decoding: data, as: UTF8.self), file: source)

  // DejaVu Sans and the Noto fonts installed for what it lacks; the page names each file under fonts/.
  let fonts = try FontSet.dejaVu(size: 16)
  var page = HTMLPage(fonts: fonts, options: HTMLOptions(fontSource: .url(prefix: "fonts/")))
  var items = ""
  for (index, comment) in feed.enumerated() {
    let paragraph = Paragraph(LocalizedKey(comment.text)).lineLimit(3).moreLabel("Read more").lessLabel("Show less")
    let fragment = page.html(paragraph, widths: 240...760, id: "comment-\(index + 1)", language: comment.language)
    for diagnostic in fragment.diagnostics { print("comment \(index + 1): \(diagnostic.message)") }
    items += """
      <li><header><span class="avatar" aria-hidden="true">\(escaped(String(comment.author.prefix(1))))</span>\
      <b>\(escaped(comment.author))</b></header>\(fragment.html)</li>

      """
  }
  let html = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Comments on release 2.0</title>
    <link rel="stylesheet" href="unfold.css">
    <style>\(pageStyle)</style>
    </head>
    <body>
    <main>
    <h1>\(feed.count) comments on “Release 2.0”</h1>
    <ol>
    \(items)</ol>
    </main>
    </body>
    </html>

    """

  let folder = URL(fileURLWithPath: output)
  let fontFolder = folder.appendingPathComponent("fonts")
  try FileManager.default.createDirectory(at: fontFolder, withIntermediateDirectories: true)
  try Data(html.utf8).write(to: folder.appendingPathComponent("index.html"))
  try Data(page.stylesheet.utf8).write(to: folder.appendingPathComponent("unfold.css"))
  let files = page.fontFiles()
  var bytes = 0
  for file in files {
    try file.data.write(to: fontFolder.appendingPathComponent(file.name))
    bytes += file.data.count
  }
  print(
    "\(output): index.html (\(html.utf8.count / 1024) KB, \(feed.count) comments), unfold.css, "
      + "fonts/ (\(files.count) files, \(bytes / 1024) KB)")
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("unfold-feed: \(error)\n".utf8))
  exit(1)
}
