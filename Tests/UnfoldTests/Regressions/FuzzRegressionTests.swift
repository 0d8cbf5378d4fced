import Foundation
import Testing

@testable import Unfold

/// Inputs the fuzzers (scripts/fuzz) crashed on, each reduced by hand to what triggers it, kept so that the
/// fix stays.
@Suite struct FuzzRegressionTests {
  /// stringsdict, 2026-11-29: a tag name of bytes that are not UTF-8 trapped inside swift-corelibs-
  /// foundation's XMLParser (`_NSXMLParserStartElementNs`). The document is now checked as UTF-8 first and
  /// reported with its line and column.
  @Test func aStringsdictWithANameThatIsNotUTF8IsAnError() {
    let head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\n<k".utf8)
    let data = Data(head + Array(repeating: 0xEE, count: 40) + Array(">x</k></dict></plist>".utf8))
    #expect {
      try Localizations.readStringsDict(data, file: "Fuzz.stringsdict")
    } throws: { error in
      (error as? LocalizationError)?.description == "Fuzz.stringsdict:3:3: not valid UTF-8 (byte 69)"
    }
    // The same document in UTF-16 still reaches the XML parser (and fails there, as malformed).
    let utf16 = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><dict><key>é</key></dict></plist>".utf16.flatMap {
        [UInt8($0 & 0xFF), UInt8($0 >> 8)]
      })
    #expect(throws: LocalizationError.self) { try Localizations.readStringsDict(utf16, file: "U.stringsdict") }
  }
}
