package abc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/meshrig/meshrig/format"
)

// Ogawa is a tree of groups and data blocks addressed by absolute byte
// offsets. The file starts with a 16-byte header: "Ogawa", a frozen flag
// (0xff once the writer closed the file cleanly), a big-endian uint16
// version (1) and the little-endian uint64 offset of the root group. A
// group is a uint64 child count followed by that many uint64 child
// offsets; an offset with its top bit set points at a data block, one
// without at a group; 0 is an empty group and 1<<63 an empty block. A
// data block is a uint64 byte count followed by the bytes.
const (
	headerSize = 16
	dataBit    = uint64(1) << 63
)

// container reads the groups and data blocks of one Ogawa file. Every
// offset and size is checked against the file's size before anything is
// allocated, and every group is read at most once, so what a file makes
// us allocate is bounded by its size.
type container struct {
	r    io.ReaderAt
	size int64
	seen map[int64]bool // groups read so far
}

// group is one Ogawa group: where it lies and its children's offsets,
// data bit included.
type group struct {
	pos  int64
	kids []uint64
}

// isData reports whether child k is a data block.
func (g group) isData(k int) bool { return g.kids[k]&dataBit != 0 }

// kidRef is the byte offset where child k's offset is stored, for errors.
func (g group) kidRef(k int) int64 { return g.pos + 8 + 8*int64(k) }

// errAt is a ParseError at byte off.
func errAt(off int64, msg string, args ...any) error {
	return &format.ParseError{Offset: off, Err: fmt.Errorf(msg, args...)}
}

// readAt fills b from off, which the caller has checked lies in the file.
func (c *container) readAt(b []byte, off int64) error {
	n, err := c.r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errAt(off, "%w: %d bytes wanted, %d read", format.ErrTruncated, len(b), n)
	}
	return errAt(off, "%v", err)
}

func (c *container) u64(off int64) (uint64, error) {
	var b [8]byte
	if err := c.readAt(b[:], off); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// header checks the magic, frozen flag and version, and returns the root
// group's offset.
func (c *container) header() (uint64, error) {
	if c.size < headerSize {
		return 0, errAt(0, "%w: %d bytes, an Ogawa header needs %d", format.ErrTruncated, c.size, headerSize)
	}
	var h [headerSize]byte
	if err := c.readAt(h[:], 0); err != nil {
		return 0, err
	}
	if string(h[:5]) != "Ogawa" {
		if string(h[:8]) == "\x89HDF\r\n\x1a\n" {
			return 0, errAt(0, "%w: HDF5 Alembic files are not supported; re-export as Ogawa", format.ErrUnsupported)
		}
		return 0, errAt(0, "not an Alembic Ogawa file (magic %q, want \"Ogawa\")", h[:5])
	}
	if h[5] != 0xff {
		return 0, errAt(5, "the file was not closed cleanly by its writer (frozen flag %#x, want 0xff)", h[5])
	}
	if v := uint16(h[6])<<8 | uint16(h[7]); v != 1 {
		return 0, errAt(6, "%w: Ogawa version %d (only 1 is read)", format.ErrUnsupported, v)
	}
	return binary.LittleEndian.Uint64(h[8:]), nil
}

// group reads the group at ptr, an offset stored at byte ref. An empty
// group (0) has no children. A group reached a second time is refused: in
// a file written by Alembic every group has one parent, and refusing
// revisits rules out cycles and exponential walks over shared groups.
func (c *container) group(ptr uint64, ref int64, what string) (group, error) {
	if ptr&dataBit != 0 {
		return group{}, errAt(ref, "%s: offset %#x points at a data block, want a group", what, ptr)
	}
	if ptr == 0 {
		return group{pos: 0}, nil
	}
	pos := int64(ptr)
	if ptr < headerSize {
		return group{}, errAt(ref, "%s: group offset %d points into the 16-byte file header", what, ptr)
	}
	if ptr > uint64(c.size) || pos > c.size-8 {
		return group{}, errAt(ref, "%s: group offset %d is outside the file (%d bytes)", what, ptr, c.size)
	}
	if c.seen[pos] {
		return group{}, errAt(ref, "%s: group at byte %d is reached a second time (a cycle or a shared group)", what, pos)
	}
	c.seen[pos] = true
	n, err := c.u64(pos)
	if err != nil {
		return group{}, err
	}
	if room := uint64(c.size-pos-8) / 8; n > room {
		return group{}, errAt(pos, "%s: group claims %d children, the file has room for %d", what, n, room)
	}
	g := group{pos: pos, kids: make([]uint64, n)}
	if n == 0 {
		return g, nil
	}
	b := make([]byte, 8*n)
	if err := c.readAt(b, pos+8); err != nil {
		return group{}, err
	}
	for k := range g.kids {
		g.kids[k] = binary.LittleEndian.Uint64(b[8*k:])
	}
	return g, nil
}

// block is a data block: its bytes lie at [pos, pos+n).
type block struct {
	pos, n int64
}

// data locates the data block at ptr, an offset stored at byte ref.
func (c *container) data(ptr uint64, ref int64, what string) (block, error) {
	if ptr&dataBit == 0 {
		return block{}, errAt(ref, "%s: offset %#x points at a group, want a data block", what, ptr)
	}
	p := ptr &^ dataBit
	if p == 0 {
		return block{}, nil
	}
	if p < headerSize {
		return block{}, errAt(ref, "%s: data offset %d points into the 16-byte file header", what, p)
	}
	if p > uint64(c.size) || int64(p) > c.size-8 {
		return block{}, errAt(ref, "%s: data offset %d is outside the file (%d bytes)", what, p, c.size)
	}
	pos := int64(p)
	n, err := c.u64(pos)
	if err != nil {
		return block{}, err
	}
	if room := uint64(c.size - pos - 8); n > room {
		return block{}, errAt(pos, "%s: data block claims %d bytes, %d remain in the file", what, n, room)
	}
	return block{pos: pos + 8, n: int64(n)}, nil
}

// bytes reads a whole block into a new slice.
func (c *container) bytes(b block) ([]byte, error) {
	out := make([]byte, b.n)
	if b.n == 0 {
		return out, nil
	}
	return out, c.readAt(out, b.pos)
}

// kidData locates the data block that is child k of g.
func (c *container) kidData(g group, k int, what string) (block, error) {
	return c.data(g.kids[k], g.kidRef(k), what)
}

// kidGroup reads the group that is child k of g.
func (c *container) kidGroup(g group, k int, what string) (group, error) {
	return c.group(g.kids[k], g.kidRef(k), what)
}
