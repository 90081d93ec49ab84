import Foundation
import HeraldDesktop
import Testing

/// A portal icon's bytes carry no type: it is read from their first bytes, so that the
/// file herald-notify writes has the name extension servers look at.
@Suite struct ImageSourceTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "png"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "jpg"),
        (Array("GIF89a".utf8), "gif"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "webp"),
        (Array("BM6\u{0}".utf8), "bmp"),
        (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "svg"),
    ] as [([UInt8], String)])
    func sniffedImagesKeepTheirBytes(bytes: [UInt8], fileExtension: String) throws {
        let image = try #require(ImageSource.sniffed(bytes))
        #expect(image.fileExtension == fileExtension)
        guard case .inline(let data, _) = image else { Issue.record("not inline: \(image)"); return }
        #expect([UInt8](data) == bytes)
    }

    @Test func bytesThatAreNoImageAreNone() {
        #expect(ImageSource.sniffed([]) == nil)
        #expect(ImageSource.sniffed(Array("#!/bin/sh\nrm -rf ~\n".utf8)) == nil)
        #expect(ImageSource.sniffed(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil, "a RIFF that is not WebP")
    }
}
