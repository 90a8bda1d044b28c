//! An image a server sent, decoded within limits (it is hostile input: a decompression bomb, a
//! header that lies, a broken stream) and made small enough to draw with half-blocks: two
//! pixels a terminal cell. Decoded off the UI thread, where results are judged.

use base64::Engine;
use image::{ImageReader, Limits};
use std::io::Cursor;

/// Encoded bytes decoded at most (a larger image is described, not drawn).
pub const MAX_ENCODED: usize = 16 * 1024 * 1024;
/// Pixels along each side the decoder accepts, and bytes it may allocate.
const MAX_SIDE: u32 = 16_384;
const MAX_ALLOC: u64 = 128 * 1024 * 1024;
/// The picture kept: at most this many pixels wide and high (160 columns, 48 rows).
pub const KEPT: (u32, u32) = (160, 96);

/// An image reduced to what is drawn: RGB pixels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[u8; 3]>,
}

impl Picture {
    /// The pixel at `(x, y)`; black outside.
    pub fn at(&self, x: u32, y: u32) -> [u8; 3] {
        if x >= self.width || y >= self.height {
            return [0, 0, 0];
        }
        self.pixels[(y * self.width + x) as usize]
    }
}

/// Decodes a base64 image (`data` of an image content block).
pub fn from_base64(data: &str) -> Result<Picture, String> {
    if data.len() / 4 * 3 > MAX_ENCODED {
        return Err(format!("over {} MiB: not drawn", MAX_ENCODED / 1024 / 1024));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| format!("broken base64 ({e})"))?;
    decode(&bytes)
}

/// Decodes an image within the limits and scales it down to at most [`KEPT`].
pub fn decode(bytes: &[u8]) -> Result<Picture, String> {
    if bytes.len() > MAX_ENCODED {
        return Err(format!("over {} MiB: not drawn", MAX_ENCODED / 1024 / 1024));
    }
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("unreadable ({e})"))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| format!("not drawn: {e}"))?;
    // Only ever made smaller: a small image stays its size (two pixels a cell already).
    let small = if image.width() > KEPT.0 || image.height() > KEPT.1 {
        image.thumbnail(KEPT.0, KEPT.1).to_rgba8()
    } else {
        image.to_rgba8()
    };
    // Transparent pixels over a dark terminal: blended onto black.
    let pixels = small
        .pixels()
        .map(|p| {
            let [r, g, b, a] = p.0;
            let blend = |c: u8| (u16::from(c) * u16::from(a) / 255) as u8;
            [blend(r), blend(g), blend(b)]
        })
        .collect();
    Ok(Picture {
        width: small.width(),
        height: small.height(),
        pixels,
    })
}

/// The images of what a read or a prompt gave (`resources/read` contents with an `image/*`
/// blob, `prompts/get` messages with image content), each with a caption and decoded, or why
/// not. Runs off the UI thread, like the decoding of a call's images.
pub fn in_opened(result: &serde_json::Value) -> Vec<(String, Result<Picture, String>)> {
    let mut found = Vec::new();
    let contents = result.get("contents").and_then(serde_json::Value::as_array);
    for (i, content) in contents.into_iter().flatten().enumerate() {
        let mime = content.get("mimeType").and_then(serde_json::Value::as_str);
        let blob = content.get("blob").and_then(serde_json::Value::as_str);
        if let (Some(mime), Some(blob)) = (mime, blob)
            && mime.starts_with("image/")
        {
            let caption = format!("contents[{i}] ({})", crate::untrusted::line(mime, 40));
            found.push((caption, from_base64(blob)));
        }
    }
    let messages = result.get("messages").and_then(serde_json::Value::as_array);
    for (i, message) in messages.into_iter().flatten().enumerate() {
        let content = message.get("content");
        let image = content
            .and_then(|c| c.get("type"))
            .and_then(serde_json::Value::as_str);
        let data = content
            .and_then(|c| c.get("data"))
            .and_then(serde_json::Value::as_str);
        if let (Some("image"), Some(data)) = (image, data) {
            found.push((format!("messages[{i}]"), from_base64(data)));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo's 1×1 PNG.
    const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    #[test]
    fn an_image_is_decoded_and_kept_small() {
        let picture = from_base64(PIXEL).expect("a PNG");
        assert_eq!((picture.width, picture.height), (1, 1));
        let mut big = image::RgbImage::new(1000, 500);
        big.put_pixel(999, 499, image::Rgb([255, 0, 0]));
        let mut png = Vec::new();
        big.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("encode");
        let picture = decode(&png).expect("decoded");
        assert_eq!((picture.width, picture.height), (160, 80), "aspect kept");
    }

    #[test]
    fn hostile_images_are_refused_with_why() {
        assert!(
            from_base64("not base64!")
                .expect_err("refused")
                .contains("base64")
        );
        assert!(decode(b"GIF89a garbage").is_err());
        // A PNG header claiming 100,000 × 100,000 pixels: refused before anything is allocated.
        let mut bomb = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&100_000u32.to_be_bytes());
        bomb.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        let started = std::time::Instant::now();
        assert!(decode(&bomb).is_err());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let huge = "A".repeat(MAX_ENCODED / 3 * 4 + 8);
        assert!(from_base64(&huge).expect_err("refused").contains("MiB"));
    }

    #[test]
    fn the_images_of_a_read_and_of_a_prompt_are_found_with_their_place() {
        let read = serde_json::json!({"contents": [
            {"uri": "a", "mimeType": "text/plain", "text": "hi"},
            {"uri": "b", "mimeType": "image/png", "blob": PIXEL},
            {"uri": "c", "mimeType": "application/octet-stream", "blob": PIXEL}
        ]});
        let found = in_opened(&read);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "contents[1] (image/png)");
        assert!(found[0].1.is_ok());
        let prompt = serde_json::json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "look"}},
            {"role": "assistant", "content": {"type": "image", "data": "bm90IGFuIGltYWdl", "mimeType": "image/png"}}
        ]});
        let found = in_opened(&prompt);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "messages[1]");
        assert!(
            found[0]
                .1
                .as_ref()
                .is_err_and(|e| e.starts_with("not drawn"))
        );
    }
}
