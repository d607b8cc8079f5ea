package gltf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// maxFile bounds the size of a glTF file or buffer read into memory.
const maxFile = 1 << 30

// ReadScene reads the glTF file name (.glb or .gltf) from fsys, resolving
// external buffers in fsys relative to the file's folder: a uri that is
// absolute, has a scheme other than data: or leaves the folder is refused
// with format.ErrOutsideFolder, without opening anything.
//
// Every mesh primitive of the default scene drawn as triangles (strips and
// fans are split; points and lines are skipped) joins one mesh, vertices
// unwelded, in node order. Scene.Mesh is the bind pose: skinned meshes as
// stored (with their default morph weights), the others placed by their
// nodes. Each animation (or only opt.Clip; unnamed ones are "clip_K")
// becomes one clip of Scene.Sequence. With opt.FPS 0 a clip whose key times
// are evenly spaced is sampled at them; any other clip, at opt.FPS or else
// 30 fps, from its first to its last key time in n+1 evenly spaced frames,
// n = ⌈span·fps⌉, so both end keys are frames: the clip's rate, n/span, is
// the one asked when the span is a whole number of frames and finer
// otherwise (Fox's Run, 1.1583 s at 30 fps: 36 frames at 30.216 fps).
// opt.Frames keeps some of each clip's frames, counted at that rate, and
// only those are evaluated. What sampling will hold (positions, frame
// labels, the file's rig per frame) is decided from the file before any of
// it is allocated, and more than 1.5 GiB is refused with an error naming
// the frames, vertices and bytes; no clip is ever cut short. Sampling
// evaluates node translation, rotation and scale channels (STEP, LINEAR
// with quaternion slerp, CUBICSPLINE), morph target weights, and skins with
// every JOINTS_k/WEIGHTS_k set; frames are evaluated in parallel, with the
// same result every time, and stop with opt.Context's error when it is
// done.
//
// Scene.Rig is the file's own skeleton, weights and motion when they
// replay every sampled frame: its joints are the joint nodes of every skin
// in use (parents are the nearest joint ancestors; a still joint "root" at
// the origin is added above a forest, and for unskinned primitives under
// no joint), its skin keeps each vertex's four largest weights, and an
// unskinned primitive rides rigidly on its nearest joint. Rig is nil when
// no primitive is skinned, morph weights are animated, two skins bind a
// joint differently, or an unskinned primitive moves other than its joint.
//
// Scene.Files lists name and every side file opened, as names in fsys.
//
// A truncated file gives an error wrapping format.ErrTruncated; geometry
// compression (Draco, meshopt) format.ErrUnsupported; the file or a side
// file that is not a regular file (a named pipe, which would block)
// format.ErrNotRegular; a malformed file an error, never a panic.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (sc *format.Scene, err error) {
	defer func() {
		// qmuntal/gltf trusts some of what it decodes; whatever slipped
		// past our checks is still a malformed file, not a crash.
		if r := recover(); r != nil {
			sc, err = nil, fmt.Errorf("malformed glTF (%v)", r)
		}
	}()
	if opt.FPS < 0 || math.IsNaN(opt.FPS) || math.IsInf(opt.FPS, 0) {
		return nil, fmt.Errorf("sampling rate %v fps: want a positive number, or 0 for the file's own", opt.FPS)
	}
	if err := opt.Frames.Validate(); err != nil {
		return nil, err
	}
	data, err := readLimited(fsys, name)
	if err != nil {
		return nil, err
	}
	guard := &guardFS{fsys: fsys, dir: path.Dir(name)}
	doc, err := decode(data, guard)
	if err != nil {
		return nil, err
	}
	if sc, err = newScene(doc, opt, guard); err != nil {
		return nil, err
	}
	sc.Files = append([]string{name}, guard.opened...)
	return sc, nil
}

// readLimited reads a regular file of at most maxFile bytes.
func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := openRegular(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s is larger than the %d bytes meshrig reads", name, maxFile)
	}
	return data, nil
}

// decode parses a GLB or glTF document and loads its buffers.
func decode(data []byte, fsys fs.FS) (*gltflib.Document, error) {
	doc := new(gltflib.Document)
	if len(data) >= 4 && string(data[:4]) == "glTF" {
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
		switch {
		case errors.Is(err, format.ErrOutsideFolder), errors.Is(err, format.ErrNotRegular), errors.Is(err, errTooLarge):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("a buffer file is missing: %w", err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("GLB binary chunk: %w (%w)", format.ErrTruncated, err)
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

// checkGLB verifies the GLB header and chunk lengths against the data, so
// a truncated file is named as such, with the offset where it ends.
func checkGLB(data []byte) error {
	truncated := func(what string, args ...any) error {
		return &format.ParseError{Offset: int64(len(data)), Err: fmt.Errorf(what+": %w", append(args, format.ErrTruncated)...)}
	}
	if len(data) < 20 {
		return truncated("GLB header of %d bytes, want 20", len(data))
	}
	le := func(o int) int {
		return int(uint32(data[o]) | uint32(data[o+1])<<8 | uint32(data[o+2])<<16 | uint32(data[o+3])<<24)
	}
	if v := le(4); v != 2 {
		return &format.ParseError{Offset: 4, Err: fmt.Errorf("GLB version %d: %w (meshrig reads glTF 2.0)", v, format.ErrUnsupported)}
	}
	if total := le(8); total > len(data) {
		return truncated("GLB header says %d bytes, file has %d", total, len(data))
	}
	// Chunks: 8-byte header (length, type) then data; the JSON comes first.
	for o := 12; o < min(le(8), len(data)); {
		if o+8 > len(data) {
			return truncated("chunk header at byte %d", o)
		}
		n := le(o)
		if n > len(data)-o-8 {
			return truncated("chunk at byte %d holds %d bytes, %d remain", o, n, len(data)-o-8)
		}
		o += 8 + n
	}
	return nil
}

// compressed reports the extensions that move geometry out of plain
// accessors: a file that requires them would read as zeros.
func compressed(ext string) bool {
	return ext == "KHR_draco_mesh_compression" || ext == "EXT_meshopt_compression"
}

// newScene evaluates the document; side serves the image files beside it.
func newScene(doc *gltflib.Document, opt format.SceneOptions, side fs.FS) (*format.Scene, error) {
	for _, ext := range doc.ExtensionsRequired {
		if compressed(ext) {
			return nil, fmt.Errorf("extension %s: %w (decompress the file first, e.g. with gltf-transform)", ext, format.ErrUnsupported)
		}
	}
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
	if rest.Surface, err = readSurface(doc, prims, g.globals(g.rest), len(rest.Verts), len(rest.Tris), side); err != nil {
		return nil, err
	}
	sc := &format.Scene{Mesh: rest}
	truth := newTruth(doc, ev, clips, rest)
	if len(clips) > 0 {
		joints := 0
		if truth != nil {
			joints = len(truth.node)
		}
		tms, err := plan(clips, opt, len(rest.Verts), joints)
		if err != nil {
			return nil, err
		}
		ctx := opt.Context
		if ctx == nil {
			ctx = context.Background()
		}
		var exact bool
		if sc.Sequence, exact, err = sample(ctx, ev, rest, clips, tms, truth); err != nil {
			return nil, err
		}
		if !exact {
			truth = nil // an unskinned primitive strays from its joint
		}
	}
	if truth != nil {
		if r, err := truth.rig(); err == nil {
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
	verts := make([]linalg.Vec3, ev.nverts)
	ev.pose(ev.g.globals(ev.g.rest), nil, true, verts)
	return mesh.New(verts, combinedFaces(ev.prims))
}
