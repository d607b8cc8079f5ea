package abc

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// maxStream bounds a compressed file decompressed into memory.
const maxStream = 1 << 30

func init() {
	format.Register(format.Format{Name: "alembic", Exts: []string{".abc"}, Scene: ReadScene,
		SceneReads: "mesh animation (PolyMesh caches; no rig)"})
}

// ReadScene reads the Alembic file name in fsys for format.ReadScene: the
// picked meshes as one sequence (Scene.Mesh is its rest pose, the first
// frame read), the file's objects listed in Scene.Objects. The one clip
// is named after the file.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (*format.Scene, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.ReaderAt
	var size int64
	st, err := f.Stat()
	if ra, ok := f.(io.ReaderAt); ok && err == nil && st.Mode().IsRegular() {
		r, size = ra, st.Size()
	} else {
		// A decompressed stream: Ogawa needs random access, so it is read
		// into memory, up to 1 GiB.
		b, err := io.ReadAll(io.LimitReader(f, maxStream+1))
		if err != nil {
			return nil, err
		}
		if len(b) > maxStream {
			return nil, fmt.Errorf("%w: decompressed past %d bytes; decompress the file first", format.ErrUnsupported, maxStream)
		}
		r, size = bytes.NewReader(b), int64(len(b))
	}
	clip := strings.TrimSuffix(path.Base(name), path.Ext(name))
	if opt.Clip != "" && opt.Clip != clip {
		return nil, fmt.Errorf("--clip %s: an Alembic file has one clip, named after the file (%q)", opt.Clip, clip)
	}
	sc, err := Read(r, size, Options{Object: opt.Object, FPS: opt.FPS, Frames: opt.Frames, Clip: clip, Context: opt.Context})
	if err != nil {
		return nil, err
	}
	return &format.Scene{Sequence: sc.Sequence, Mesh: sc.Sequence.Rest, Files: []string{name}, Objects: sc.Objects}, nil
}
