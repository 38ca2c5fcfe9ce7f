//! One zip entry's bytes, inflated by a decompressor reused across entries.
//!
//! A fresh decompressor per entry (what `ZipArchive::by_index` makes) leaves the heap
//! fragmented over a jar of thousands of classes: the process keeps several times the
//! memory it uses. Reading entries raw and inflating them with one [`Unzip`] does not.

use std::io::Read;

use flate2::{Decompress, FlushDecompress, Status};
use zip::CompressionMethod;

/// A reusable inflater and buffer for the compressed bytes.
pub struct Unzip {
    inflate: Decompress,
    raw: Vec<u8>,
}

impl Default for Unzip {
    fn default() -> Self {
        Unzip { inflate: Decompress::new(false), raw: Vec::new() }
    }
}

impl Unzip {
    /// The uncompressed bytes of `entry` (opened with `by_index_raw` or `by_name_raw`), at
    /// most `max` of them; an error says what is wrong with the entry.
    pub fn read<R: Read>(&mut self, mut entry: zip::read::ZipFile<'_, R>, max: u64) -> Result<Vec<u8>, String> {
        if entry.encrypted() {
            return Err("encrypted entry".into());
        }
        let size = entry.size();
        if size > max || entry.compressed_size() > max {
            return Err(format!("larger than {} MiB", max >> 20));
        }
        let method = entry.compression();
        let expected_crc = entry.crc32();
        self.raw.clear();
        (&mut entry).take(max + 1).read_to_end(&mut self.raw).map_err(|e| e.to_string())?;
        let size = usize::try_from(size).map_err(|e| e.to_string())?;
        let bytes = match method {
            CompressionMethod::Stored => std::mem::take(&mut self.raw),
            CompressionMethod::Deflated => {
                self.inflate.reset(false);
                let mut out = Vec::with_capacity(size);
                let status = self
                    .inflate
                    .decompress_vec(&self.raw, &mut out, FlushDecompress::Finish)
                    .map_err(|e| format!("corrupt deflate stream: {e}"))?;
                if status != Status::StreamEnd {
                    return Err("larger than its recorded size or truncated".into());
                }
                out
            }
            other => return Err(format!("unsupported compression method {other}")),
        };
        if bytes.len() != size {
            return Err(format!("{} bytes where the zip records {size}", bytes.len()));
        }
        if crc32fast::hash(&bytes) != expected_crc {
            return Err("checksum mismatch".into());
        }
        Ok(bytes)
    }
}
