//! Just enough of PNG to draw bars: 8-bit greyscale, the pixels in stored
//! (uncompressed) deflate blocks, checksums as the format defines them.

const WIDTH: usize = 16;
const HEIGHT: usize = 100;

/// One dark bar per value, `value` pixels high, on white.
pub(crate) fn bars(values: &[u8]) -> Vec<u8> {
    let width = WIDTH * values.len();
    let mut pixels = Vec::with_capacity((width + 1) * HEIGHT);
    for row in 0..HEIGHT {
        pixels.push(0); // no filter
        for value in values {
            let filled = HEIGHT - row <= usize::from(*value);
            for column in 0..WIDTH {
                let gap = column == 0 || column == WIDTH - 1;
                pixels.push(if filled && !gap { 40 } else { 255 });
            }
        }
    }
    let mut header = Vec::new();
    header.extend((width as u32).to_be_bytes());
    header.extend((HEIGHT as u32).to_be_bytes());
    header.extend([8, 0, 0, 0, 0]); // 8 bits, greyscale, no interlace
    let mut png = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib_stored(&pixels));
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend((data.len() as u32).to_be_bytes());
    let start = png.len();
    png.extend(kind);
    png.extend(data);
    let crc = crc32(&png[start..]);
    png.extend(crc.to_be_bytes());
}

fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = data.chunks(65_535).collect();
    for (at, block) in blocks.iter().enumerate() {
        out.push(u8::from(at + 1 == blocks.len()));
        let len = block.len() as u16;
        out.extend(len.to_le_bytes());
        out.extend((!len).to_le_bytes());
        out.extend(*block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for byte in data {
        a = (a + u32::from(*byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    out.extend(((b << 16) | a).to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
