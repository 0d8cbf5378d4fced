import Foundation
import Testing

@testable import Unfold

/// The XML property list reader: the XML that property lists are written in, read as Foundation reads it,
/// and everything else an error at its line and column.
@Suite struct PropertyListReaderTests {
  /// Reads a document given as text (UTF-8).
  func read(_ text: String, file: String = "T.plist") throws(LocalizationError) -> DocumentNode {
    try PropertyListReader.read(Data(text.utf8), file: file)
  }

  /// The error a document gives, as the command prints it.
  func failure(_ text: String) -> String? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error.description
    }
  }

  /// A value as text, the same for a node and for what Foundation reads: dictionaries by sorted keys.
  static func describe(_ node: DocumentNode) -> String {
    switch node.value {
    case .dictionary(let entries):
      let members = entries.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \(describe($0.value))" }
      return "{" + members.joined(separator: ", ") + "}"
    case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
    case .string(let text): return text.debugDescription
    case .scalar(let text): return "<\(text)>"
    case .null: return "null"
    }
  }

  static func describe(foundation object: Any) -> String {
    switch object {
    case let dictionary as [String: Any]:
      let members = dictionary.sorted { $0.key < $1.key }.map {
        "\($0.key.debugDescription): \(describe(foundation: $0.value))"
      }
      return "{" + members.joined(separator: ", ") + "}"
    case let array as [Any]: return "[" + array.map { describe(foundation: $0) }.joined(separator: ", ") + "]"
    case let string as String: return string.debugDescription
    default: return "<\(object)>"
    }
  }

  static let documents: [String] = [
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>%d files</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%#@files@</string>
    \t\t<!-- a comment between entries -->
    \t\t<key>files</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>one</key>
    \t\t\t<string>%d file &amp; its &lt;copy&gt; &#x1F600; &#233;</string>
    \t\t\t<key>other</key>
    \t\t\t<string><![CDATA[%d <files> & more]]></string>
    \t\t</dict>
    \t</dict>
    </dict>
    </plist>
    """,
    "<plist version='1.0'><dict><key>a</key><string/><key>b</key><array><true/><false/><integer>3</integer></array></dict></plist>",
    "<plist><dict><key>lines</key><string>one\r\ntwo\rthree\nfour</string><key>empty</key><dict/></dict></plist>",
    "<plist><array><string>  spaced  </string><string>a<!-- c -->b</string><key-like>x</key-like></array></plist>",
  ]

  @Test func validDocumentsReadAsFoundationReadsThem() throws {
    for (number, document) in Self.documents.enumerated() {
      let ours = try? read(document)
      let theirs = try? PropertyListSerialization.propertyList(from: Data(document.utf8), options: [], format: nil)
      if number == 3 {
        // `<key-like>` is no property list element: both refuse it.
        #expect(ours == nil)
        continue
      }
      let node = try #require(ours, "document \(number)")
      let object = try #require(theirs, "document \(number)")
      #expect(Self.describe(node) == Self.describe(foundation: object), "document \(number)")
    }
  }

  @Test func textIsDecodedAsXMLPrescribes() throws {
    let node = try read(Self.documents[0])
    let files = try #require(node.member("%d files")?.member("files"))
    #expect(files.member("one").map(Self.describe) == "\"%d file & its <copy> 😀 é\"")
    #expect(files.member("other").map(Self.describe) == "\"%d <files> & more\"")
    let lines = try read(Self.documents[2])
    // Line ends are kept as written, as Foundation keeps them (XML would make them LF).
    #expect(lines.member("lines").map(Self.describe) == "\"one\\r\\ntwo\\rthree\\nfour\"")
    // Values remember where their start tag is.
    #expect(files.member("one")?.line == 15)
    #expect(files.member("one")?.column == 4)
  }

  @Test func utf16DocumentsReadAsUTF8Ones() throws {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><dict><key>é</key><string>ü</string></dict></plist>"
    let littleEndian: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let bigEndian: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    for bytes in [[0xFF, 0xFE] + littleEndian, bigEndian] {
      let node = try PropertyListReader.read(Data(bytes), file: "U.plist")
      #expect(Self.describe(node) == "{\"é\": \"ü\"}")
    }
  }

  @Test func malformedDocumentsAreErrorsAtTheirPlace() {
    let deep = "<plist>" + String(repeating: "<array>", count: 201)
    #expect(failure(deep) == "T.plist:1:1408: nested more than 200 levels deep")
    let cases: [(document: String, error: String)] = [
      ("", "T.plist:1:1: not a well-formed property list (the document is empty)"),
      ("plist", "T.plist:1:1: not a well-formed property list (the document is not XML)"),
      ("<dict/>", "T.plist:1:1: expected <plist> as the root element, found <dict>"),
      ("<plist></plist>", "T.plist:1:1: expected a <plist> with a value, found none"),
      ("<plist><dict/><dict/></plist>", "T.plist:1:15: expected one value in <plist>, found another"),
      (
        "<plist><dict></plist>",
        "T.plist:1:14: not a well-formed property list (an end tag does not match its start tag: </plist> closes <dict>)"
      ),
      (
        "<plist><dict><key>k</key>",
        "T.plist:1:26: not a well-formed property list (the document ends before its elements are closed)"
      ),
      ("<plist><dict><key>k</key></dict></plist>", "T.plist:1:26: expected a value after <key>k</key>"),
      ("<plist><dict><key>k</key><key>l</key></dict></plist>", "T.plist:1:26: expected a value after <key>k</key>"),
      (
        "<plist><dict><string>v</string></dict></plist>", "T.plist:1:14: expected a <key> before each value in a <dict>"
      ),
      ("<plist><dict>x</dict></plist>", "T.plist:1:14: unexpected text in a <dict>"),
      (
        "<plist><array><key>k</key></array></plist>",
        "T.plist:1:15: expected <key> only inside a <dict>, before its value"
      ),
      ("<plist><set/></plist>", "T.plist:1:8: unexpected element <set> in a property list"),
      ("<plist><string>a<b/></string></plist>", "T.plist:1:17: unexpected element <b> inside <string>"),
      (
        "<plist><string>&nbsp;</string></plist>",
        "T.plist:1:16: not a well-formed property list (an unknown entity &nbsp;)"
      ),
      (
        "<plist><string>a & b</string></plist>",
        "T.plist:1:18: not a well-formed property list (a bare & outside a reference; write &amp;)"
      ),
      (
        "<plist><string>&#0;</string></plist>",
        "T.plist:1:16: not a well-formed property list (the character reference &#0; is not a character XML allows)"
      ),
      (
        "<plist><string>&#xD800;</string></plist>",
        "T.plist:1:16: not a well-formed property list (the character reference &#xD800; is not a character XML allows)"
      ),
      ("<plist><string>\u{1}</string></plist>", "T.plist:1:16: not a well-formed property list (an invalid character)"),
      (
        "<plist><string>\u{FFFF}</string></plist>",
        "T.plist:1:16: not a well-formed property list (an invalid character)"
      ),
      ("<plist>\n<string><![CDATA[x</string></plist>", "T.plist:2:9: a CDATA section is not closed"),
      ("<plist><!-- open", "T.plist:1:8: a comment is not closed"),
      (
        "<!DOCTYPE plist [<!ENTITY e \"x\">]><plist/>",
        "T.plist:1:17: a document type with declarations, which a property list does not use"
      ),
      ("<plist><true>x</true></plist>", "T.plist:1:14: unexpected text in a <true>"),
      (
        "<plist version=1.0><dict/></plist>",
        "T.plist:1:16: not a well-formed property list (an attribute is malformed)"
      ),
      ("<plist><dict/></plist>x", "T.plist:1:23: unexpected text outside the elements"),
      ("<plist><dict/></plist><dict/>", "T.plist:1:23: not a well-formed property list (text after the root element)"),
      ("<plist><?t?><dict/></plist>", "T.plist:1:8: a processing instruction, which a property list does not use"),
    ]
    for (document, expected) in cases {
      #expect(failure(document) == expected, "\(document.debugDescription)")
    }
  }
}
