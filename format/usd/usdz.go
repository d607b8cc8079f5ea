package usd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// layerName is the package's first file, its root layer.
const layerName = "rig.usdc"

// WriteUSDZ writes r as a USDZ package: a zip archive, uncompressed, whose
// first file is the root layer (the binary crate WriteUSDC makes, which
// every USDZ reader takes) followed by the PNG and JPEG
// images the surface holds, under textures/, which the layer's materials
// reference. Every file's data starts at a multiple of 64 bytes, as the
// specification requires. An image the input only named (a path without
// its bytes) is left out and its material keeps its factors.
func WriteUSDZ(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	type file struct {
		name string
		data []byte
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("usd: invalid rig: %w", err)
	}
	var files []file
	var assets []string
	if s := r.Mesh.Surface; s != nil {
		assets = make([]string, len(s.Images))
		n := namer{}
		for k, im := range s.Images {
			ext := imageExt(im.MIMEType, im.Data)
			if ext == "" {
				continue
			}
			stem := strings.TrimSuffix(path.Base(im.Path), path.Ext(im.Path))
			if im.Path == "" {
				stem = im.Name
			}
			assets[k] = "textures/" + n.name(stem, "image") + ext
			files = append(files, file{assets[k], im.Data})
		}
	}
	var layer bytes.Buffer
	if err := writeCrate(&layer, r, func(k int) string { return assets[k] }); err != nil {
		return err
	}
	z := &zipWriter{w: w}
	z.add(layerName, layer.Bytes())
	for _, f := range files {
		z.add(f.name, f.data)
	}
	return z.close()
}

// imageExt returns ".png" or ".jpg" for an image USDZ may hold, by its
// MIME type or, without one, its first bytes; "" for anything else or
// no bytes.
func imageExt(mime string, data []byte) string {
	switch {
	case len(data) == 0:
		return ""
	case mime == "image/png" || mime == "" && bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return ".png"
	case mime == "image/jpeg" || mime == "" && bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		return ".jpg"
	}
	return ""
}

// zipWriter writes a zip archive of stored (uncompressed) files whose
// data is 64-byte aligned: each local header carries an extra field of
// padding (ID 0x1986, as USD's own packager uses) sized to align what
// follows it.
type zipWriter struct {
	w       io.Writer
	off     int64
	central []byte
	count   int
	err     error
}

func (z *zipWriter) write(b []byte) {
	if z.err != nil {
		return
	}
	var n int
	n, z.err = z.w.Write(b)
	z.off += int64(n)
}

// add writes one file.
func (z *zipWriter) add(name string, data []byte) {
	const align = 64
	crc := crc32.ChecksumIEEE(data)
	start := z.off
	pad := int((align - (start+30+int64(len(name)))%align) % align)
	if pad > 0 && pad < 4 {
		pad += align // an extra field needs its 4-byte header
	}
	var extra []byte
	if pad > 0 {
		extra = make([]byte, pad)
		binary.LittleEndian.PutUint16(extra, 0x1986)
		binary.LittleEndian.PutUint16(extra[2:], uint16(pad-4))
	}
	le := binary.LittleEndian
	h := make([]byte, 30, 30+len(name)+len(extra))
	le.PutUint32(h[0:], 0x04034b50)
	le.PutUint16(h[4:], 20) // version needed: 2.0
	le.PutUint16(h[6:], 0)  // flags
	le.PutUint16(h[8:], 0)  // stored
	le.PutUint16(h[10:], 0) // time
	le.PutUint16(h[12:], 0x21)
	le.PutUint32(h[14:], crc)
	le.PutUint32(h[18:], uint32(len(data)))
	le.PutUint32(h[22:], uint32(len(data)))
	le.PutUint16(h[26:], uint16(len(name)))
	le.PutUint16(h[28:], uint16(len(extra)))
	h = append(append(h, name...), extra...)
	z.write(h)
	z.write(data)

	c := make([]byte, 46)
	le.PutUint32(c[0:], 0x02014b50)
	le.PutUint16(c[4:], 20)
	le.PutUint16(c[6:], 20)
	copy(c[8:28], h[6:26])
	le.PutUint16(c[28:], uint16(len(name)))
	le.PutUint32(c[42:], uint32(start))
	z.central = append(append(z.central, c...), name...)
	z.count++
	if int64(len(data)) >= 1<<32-1 || start >= 1<<32-1 {
		z.err = fmt.Errorf("usdz: %s does not fit a zip without zip64 (4 GiB)", name)
	}
}

// close writes the central directory and its end record.
func (z *zipWriter) close() error {
	at := z.off
	z.write(z.central)
	end := make([]byte, 22)
	le := binary.LittleEndian
	le.PutUint32(end[0:], 0x06054b50)
	le.PutUint16(end[8:], uint16(z.count))
	le.PutUint16(end[10:], uint16(z.count))
	le.PutUint32(end[12:], uint32(len(z.central)))
	le.PutUint32(end[16:], uint32(at))
	z.write(end)
	return z.err
}
