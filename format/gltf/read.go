package gltf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

// maxFile bounds the size of a glTF file read into memory.
const maxFile = 1 << 30

// ReadScene reads the glTF file name from fsys, resolving external
// buffers in fsys too (a uri that leaves the folder is refused with
// format.ErrOutsideFolder). It samples every animation (or opt.Clip) into
// one clip of the returned Sequence — at opt.FPS, or at the clip's own key
// times when they are evenly spaced, or at 30 fps — evaluating node TRS
// animation (STEP, LINEAR with quaternion slerp, CUBICSPLINE), skins and
// morph targets. The rest pose is the bind pose. When the file's skin can
// reproduce every frame (one skin, no animated morph weights), Scene.Rig
// holds its skeleton, weights and motion as ground truth.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (sc *format.Scene, err error) {
	defer func() {
		if r := recover(); r != nil {
			sc, err = nil, fmt.Errorf("malformed glTF (%v)", r)
		}
	}()
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("file of %d bytes is larger than meshrig reads (%d)", len(data), maxFile)
	}
	dir := filepath.ToSlash(filepath.Dir(name))
	doc, err := decode(data, guardFS{fsys, dir})
	if err != nil {
		return nil, err
	}
	return newScene(doc, opt)
}

// decode parses a GLB or glTF document and loads its buffers.
func decode(data []byte, fsys fs.FS) (*gltflib.Document, error) {
	doc := new(gltflib.Document)
	if len(data) >= 12 && string(data[:4]) == "glTF" {
		if err := checkGLB(data); err != nil {
			return nil, err
		}
	}
	err := gltflib.NewDecoderFS(bytes.NewReader(data), fsys).Decode(doc)
	if err != nil {
		// A uri the decoder rejects before asking fsys: say why.
		for _, b := range doc.Buffers {
			if b != nil && b.URI != "" && !b.IsEmbeddedResource() && !localURI(b.URI) {
				return nil, fmt.Errorf("buffer uri %q: %w", b.URI, format.ErrOutsideFolder)
			}
		}
		if errors.Is(err, format.ErrOutsideFolder) {
			return nil, err
		}
		return nil, fmt.Errorf("not a valid glTF file: %w", err)
	}
	for i, b := range doc.Buffers {
		if b == nil {
			return nil, fmt.Errorf("buffer %d is null", i)
		}
		if len(b.Data) < b.ByteLength {
			return nil, fmt.Errorf("buffer %d holds %d of its %d bytes: %w", i, len(b.Data), b.ByteLength, format.ErrTruncated)
		}
	}
	return doc, nil
}

// checkGLB verifies the GLB header's lengths against the data, so a
// truncated file is named as such.
func checkGLB(data []byte) error {
	le := func(o int) int {
		return int(uint32(data[o]) | uint32(data[o+1])<<8 | uint32(data[o+2])<<16 | uint32(data[o+3])<<24)
	}
	if v := le(4); v != 2 {
		return fmt.Errorf("GLB version %d: %w (meshrig reads glTF 2.0)", v, format.ErrUnsupported)
	}
	if total := le(8); total > len(data) {
		return &format.ParseError{Offset: int64(len(data)), Err: fmt.Errorf("GLB header says %d bytes, file has %d: %w", total, len(data), format.ErrTruncated)}
	}
	if len(data) < 20 || 20+le(12) > len(data) {
		return &format.ParseError{Offset: int64(len(data)), Err: fmt.Errorf("JSON chunk runs past the end: %w", format.ErrTruncated)}
	}
	return nil
}

// localURI reports whether a buffer uri names a file inside the folder.
func localURI(uri string) bool {
	u, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil || strings.Contains(u, ":") {
		return false
	}
	return fs.ValidPath(strings.TrimPrefix(u, "./"))
}

// guardFS resolves side files relative to the glTF file's folder and
// refuses any name that would leave it.
type guardFS struct {
	fsys fs.FS
	dir  string
}

func (g guardFS) Open(name string) (fs.File, error) {
	if !localURI(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: format.ErrOutsideFolder}
	}
	clean := strings.TrimPrefix(name, "./")
	if g.dir != "." && g.dir != "" {
		clean = g.dir + "/" + clean
	}
	return g.fsys.Open(clean)
}

// newScene evaluates the document.
func newScene(doc *gltflib.Document, opt format.SceneOptions) (*format.Scene, error) {
	g, err := newGraph(doc)
	if err != nil {
		return nil, err
	}
	prims, err := primitives(doc, g)
	if err != nil {
		return nil, err
	}
	if len(prims) == 0 {
		return nil, fmt.Errorf("the scene has no triangle mesh: %w", format.ErrNoFrames)
	}
	morphs := make([]int, len(doc.Nodes))
	for _, p := range prims {
		morphs[p.node] = max(morphs[p.node], len(p.targets))
	}
	clips, err := readClips(doc, morphs)
	if err != nil {
		return nil, err
	}
	if opt.Clip != "" {
		var names []string
		var keep []clip
		for _, c := range clips {
			names = append(names, c.name)
			if c.name == opt.Clip {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no animation named %q (the file has %q)", opt.Clip, names)
		}
		clips = keep
	}
	ev, err := newEvaluator(doc, g, prims)
	if err != nil {
		return nil, err
	}
	rest, err := ev.restMesh()
	if err != nil {
		return nil, err
	}
	sc := &format.Scene{Mesh: rest}
	truth := newTruth(doc, g, prims, clips, rest)
	if len(clips) > 0 {
		s := seq.New(rest)
		for ci := range clips {
			c := &clips[ci]
			times, fps := c.sampleTimes(opt.FPS)
			s.StartClip(c.name, fps)
			frames := make([][]linalg.Vec3, len(times))
			mats := make([][]linalg.Affine, len(times))
			par.For(len(times), 1, func(lo, hi int) {
				for f := lo; f < hi; f++ {
					frames[f], mats[f] = ev.frame(c, times[f])
				}
			})
			for f, v := range frames {
				if err := s.AddFrame(v, fmt.Sprintf("%s@%.4gs", c.name, times[f])); err != nil {
					return nil, err
				}
			}
			if truth != nil {
				truth.addClip(c.name, fps, mats)
			}
		}
		sc.Sequence = s
	}
	if truth != nil {
		r, err := truth.rig()
		if err == nil {
			sc.Rig = r
		}
	}
	return sc, nil
}

// combinedFaces returns the scene's triangles over the combined vertices.
func combinedFaces(prims []prim) [][]int {
	var polys [][]int
	for _, p := range prims {
		for _, t := range p.tris {
			polys = append(polys, []int{p.first + t[0], p.first + t[1], p.first + t[2]})
		}
	}
	return polys
}

// restMesh builds the combined bind-pose mesh.
func (ev *evaluator) restMesh() (*mesh.Mesh, error) {
	verts := ev.pose(ev.g.rest, nil, true)
	return mesh.New(verts, combinedFaces(ev.prims))
}
