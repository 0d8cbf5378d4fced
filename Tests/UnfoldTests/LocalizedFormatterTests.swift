import Testing
import Unfold

/// The printf-style formatter: every specifier of the list, positions, flags, locales, and mismatches that
/// never crash.
@Suite struct LocalizedFormatterTests {
  func format(_ format: String, _ arguments: [FormatArgument], locale: String = "en") -> String {
    LocalizedFormatter(locale: locale).format(format, arguments: arguments).text
  }

  func kinds(_ format: String, _ arguments: [FormatArgument]) -> [Diagnostic.Kind] {
    LocalizedFormatter(locale: "en").format(format, arguments: arguments).diagnostics.map(\.kind)
  }

  @Test func everySpecifier() {
    #expect(
      format("%@ %d %i %u %ld %lld %llu", [.string("a"), .int(-1), .int(2), .uint(3), .int(4), .int(5), .uint(6)])
        == "a -1 2 3 4 5 6")
    #expect(
      format("%f %lf %.2f %.0f", [.double(1.5), .double(2), .double(3.14159), .double(2.5)])
        == "1.500000 2.000000 3.14 2")
    #expect(
      format("%e %g %x %X %o %c %%", [.double(12345.678), .double(0.0001), .int(255), .int(255), .int(8), .int(65)])
        == "1.234568e+04 0.0001 ff FF 10 A %")
    #expect(format("%s and %#x %#o", [.string("str"), .int(255), .int(8)]) == "str and 0xff 010")
  }

  @Test func positionsReorderAndRepeat() {
    #expect(format("%2$@ then %1$@", [.string("first"), .string("second")]) == "second then first")
    #expect(format("%1$@ %1$@ %2$lld", [.string("x"), .int(7)]) == "x x 7")
    #expect(format("%@ and %1$@", [.string("a"), .string("b")]) == "a and a")
  }

  @Test func widthFlagsAndPrecision() {
    #expect(
      format("[%5d|%-5d|%05d|%+d|% d|%.3d]", [.int(42), .int(42), .int(-42), .int(7), .int(7), .int(5)])
        == "[   42|42   |-0042|+7| 7|005]")
    #expect(
      format("[%8.2f|%-8.1f|%08.3f]", [.double(3.14159), .double(2.5), .double(-1.5)]) == "[    3.14|2.5     |-001.500]"
    )
    #expect(format("[%10@]", [.string("ab")]) == "[ab]")
  }

  @Test func numbersAreWrittenForTheLocale() {
    #expect(format("%lld %.2f", [.int(1_234_567), .double(1234.5)], locale: "de-DE") == "1.234.567 1.234,50")
    #expect(format("%lld", [.int(1_234_567)], locale: "fr_FR") == "1\u{202F}234\u{202F}567")
    #expect(format("%lld %.1f", [.int(1234), .double(2.5)], locale: "ar-EG") == "١٬٢٣٤ ٢٫٥")
    #expect(format("%d", [.int(-5)], locale: "en") == "-5")
    #expect(format("%x", [.int(255)], locale: "ar-EG") == "ff")
  }

  @Test func tooFewArgumentsShowTheSpecifierAndSaySo() {
    #expect(format("%@ and %@", [.string("one")]) == "one and %@")
    #expect(kinds("%@ and %@", [.string("one")]) == [.missingArgument])
    #expect(format("%d %d %d", [.int(1)]) == "1 %d %d")
    #expect(format("%lld", []) == "%lld")
  }

  @Test func tooManyArgumentsAreReportedAndNotShown() {
    #expect(format("%@", [.string("a"), .string("b")]) == "a")
    #expect(kinds("%@", [.string("a"), .string("b")]) == [.unusedArgument])
    #expect(kinds("%2$@ %1$@", [.string("a"), .string("b")]).isEmpty)
    #expect(kinds("no specifier", [.int(1)]) == [.unusedArgument])
  }

  @Test func wrongTypesShowTheSpecifierAndSaySo() {
    #expect(format("%@", [.int(42)]) == "%@")
    #expect(kinds("%@", [.int(42)]) == [.wrongArgumentType])
    #expect(format("%lld", [.string("str")]) == "%lld")
    #expect(format("%f", [.int(3)]) == "%f")
    #expect(format("%u", [.int(-1)]) == "4,294,967,295")
    #expect(format("%d", [.uint(.max)]) == "%d")
  }

  @Test func aGapInPositionsIsNotFilledWithTheWrongArgument() {
    #expect(format("%1$@ %3$@", [.string("a"), .string("b"), .string("c")]) == "a %3$@")
    #expect(kinds("%1$@ %3$@", [.string("a"), .string("b"), .string("c")]) == [.argumentGap])
    #expect(format("%2$@", [.string("one")]) == "%2$@")
  }

  @Test func invalidSpecifiersStayAsWritten() {
    #expect(format("a %q b", [.int(1)]) == "a %q b")
    #expect(kinds("a %q b", [.int(1)]) == [.invalidSpecifier])
    #expect(format("100%", [.int(1)]) == "100%")
    #expect(format("%*d", [.int(1), .int(2)]) == "%*d")
  }

  /// A width or precision past 4,096 is not taken (the fuzzer found `%.425442545d`, megabytes from a few
  /// bytes); up to it, it is.
  @Test func hugeWidthsAndPrecisionsStayAsWritten() {
    #expect(format("%.425442545d!", [.int(7)]) == "%.425442545d!")
    #expect(kinds("%.425442545d", [.int(7)]) == [.invalidSpecifier])
    #expect(format("%5000d", [.int(7)]) == "%5000d")
    #expect(format("%.4096d", [.int(7)]).count == 4_096)
    #expect(format("%4096d", [.int(7)]).count == 4_096)
  }

  @Test func untypedArgumentsTakeTheSpecifiersType() {
    #expect(
      format("%lld files, %.1f MB, %@", [.text("1234"), .text("2.25"), .text("ok")]) == "1,234 files, 2.2 MB, ok")
    #expect(format("%d", [.text("abc")]) == "%d")
    #expect(format("%c", [.text("65")]) == "A")
  }

  @Test func styledArgumentsKeepTheirStylesInsideStyledFormats() {
    var format = StyledText.Builder()
    format.append("Hi ", style: Style(.italic))
    format.append("%@", style: Style(.italic))
    format.append("!")
    let name = StyledText(plain: "Ann").bold()
    let result = LocalizedFormatter(locale: "en").format(format.build(), arguments: [.styled(name)])
    #expect(result.text.debugDump() == "italic \"Hi \"\nbold italic \"Ann\"\nplain \"!\"\n")
  }
}
