//! An image's format and dimensions, read from its header (PNG, GIF, JPEG, WebP), so a blob or
//! an image content can be described without decoding it. Never trusts a length it reads.

/// The format's name and the width and height in pixels, when the header says them.
pub fn dimensions(bytes: &[u8]) -> Option<(&'static str, u32, u32)> {
    png(bytes)
        .or_else(|| gif(bytes))
        .or_else(|| jpeg(bytes))
        .or_else(|| webp(bytes))
}

fn be16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn le16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn le24(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 3)?;
    Some(u32::from(s[0]) | u32::from(s[1]) << 8 | u32::from(s[2]) << 16)
}

fn png(b: &[u8]) -> Option<(&'static str, u32, u32)> {
    // The signature, then the IHDR chunk: length, type, width, height (big-endian).
    if !b.starts_with(b"\x89PNG\r\n\x1a\n") || b.get(12..16)? != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(b.get(16..20)?.try_into().ok()?);
    let height = u32::from_be_bytes(b.get(20..24)?.try_into().ok()?);
    Some(("PNG", width, height))
}

fn gif(b: &[u8]) -> Option<(&'static str, u32, u32)> {
    if !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) {
        return None;
    }
    Some(("GIF", le16(b, 6)?, le16(b, 8)?))
}

fn jpeg(b: &[u8]) -> Option<(&'static str, u32, u32)> {
    if !b.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    // Segments after the start marker: FF, a marker, a big-endian length that counts itself.
    // A start-of-frame segment (C0–CF but C4, C8, CC) holds the height, then the width.
    let mut at = 2;
    while at + 4 <= b.len() {
        if b[at] != 0xFF {
            return None;
        }
        let marker = b[at + 1];
        if marker == 0xFF {
            at += 1;
            continue;
        }
        let length = be16(b, at + 2)? as usize;
        if (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker) {
            return Some(("JPEG", be16(b, at + 7)?, be16(b, at + 5)?));
        }
        if length < 2 {
            return None;
        }
        at += 2 + length;
    }
    None
}

fn webp(b: &[u8]) -> Option<(&'static str, u32, u32)> {
    if !b.starts_with(b"RIFF") || b.get(8..12)? != b"WEBP" {
        return None;
    }
    match b.get(12..16)? {
        // Lossy: 14-bit sizes after the frame's start code.
        b"VP8 " => Some(("WebP", le16(b, 26)? & 0x3FFF, le16(b, 28)? & 0x3FFF)),
        // Lossless: 14 bits each, less one, after the signature byte.
        b"VP8L" => {
            let bits = u32::from_le_bytes(b.get(21..25)?.try_into().ok()?);
            Some(("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        // Extended: 24-bit sizes, less one.
        b"VP8X" => Some(("WebP", le24(b, 24)? + 1, le24(b, 27)? + 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_says_its_size() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend(640u32.to_be_bytes());
        png.extend(480u32.to_be_bytes());
        assert_eq!(dimensions(&png), Some(("PNG", 640, 480)));
        assert_eq!(dimensions(b"GIF89a\x02\x01\x03\x00"), Some(("GIF", 258, 3)));
        // SOI, an APP0 segment of 16 bytes, then SOF0: length, precision, height, width.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16];
        jpeg.extend([0; 14]);
        jpeg.extend([0xFF, 0xC0, 0, 17, 8, 0x01, 0x00, 0x02, 0x00]);
        assert_eq!(dimensions(&jpeg), Some(("JPEG", 512, 256)));
        let mut webp = b"RIFF\0\0\0\0WEBPVP8X".to_vec();
        webp.extend([0; 8]);
        webp.extend([99, 0, 0, 49, 0, 0]);
        assert_eq!(dimensions(&webp), Some(("WebP", 100, 50)));
    }

    #[test]
    fn short_or_lying_headers_say_nothing() {
        assert_eq!(dimensions(b""), None);
        assert_eq!(dimensions(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0"), None);
        assert_eq!(dimensions(b"GIF89a\x02"), None);
        // A segment length of zero would loop forever.
        assert_eq!(dimensions(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0xFF]), None);
        assert_eq!(dimensions(&[0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]), None);
        assert_eq!(dimensions(b"RIFF\0\0\0\0WEBPVP8L\0"), None);
    }
}
