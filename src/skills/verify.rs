//! A file read for a skill held against its entry: the size first (a read of another length is
//! a mismatch whatever its digest), then the SHA-256 digest. Content that fails is never used.

use super::entry::SkillFile;

/// Why a file read for a skill was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    Size { listed: u64, read: u64 },
    Digest,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Size { listed, read } => {
                write!(f, "is {read} bytes where its entry says {listed}: not used")
            }
            Refused::Digest => write!(f, "has a SHA-256 other than its entry's: not used"),
        }
    }
}

/// Whether `bytes` are the file `listed` describes.
pub fn verify(listed: &SkillFile, bytes: &[u8]) -> Result<(), Refused> {
    let read = bytes.len() as u64;
    if read != listed.size {
        return Err(Refused::Size {
            listed: listed.size,
            read,
        });
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    match digest.as_ref() == listed.digest {
        true => Ok(()),
        false => Err(Refused::Digest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_passes_only_with_its_size_and_digest() {
        // sha256("abc")
        let hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let mut digest = [0u8; 32];
        for (i, byte) in digest.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex");
        }
        let listed = SkillFile {
            uri: "skill://x/SKILL.md".into(),
            digest,
            size: 3,
        };
        assert_eq!(verify(&listed, b"abc"), Ok(()));
        assert_eq!(verify(&listed, b"abd"), Err(Refused::Digest));
        assert_eq!(
            verify(&listed, b"abcd"),
            Err(Refused::Size { listed: 3, read: 4 })
        );
    }
}
