package collada

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// limits bound what reading one document may cost.
type limits struct {
	file     int64   // bytes of XML
	elements int     // elements kept (skipped libraries not counted)
	numbers  int     // values parsed from arrays
	sample   float64 // bytes sampling may allocate
}

// defaults: a 1 GiB file, 4 Mi elements, 128 Mi numbers (1 GiB as
// float64) and 1.5 GiB of sampled frames, as the glTF reader allows.
var defaults = limits{file: 1 << 30, elements: 1 << 22, numbers: 1 << 27, sample: 3 << 29}

// ReadScene reads the COLLADA document name (1.4 or 1.5) from fsys: a
// skinned, animated character as meshrig writes it, or as another tool
// does within what a rig can hold.
//
// The visual scene must instance one skin controller and no unskinned
// geometry. Scene.Mesh is its geometry's positions placed by the bind
// shape matrix, with the polygons of its <triangles>, <polylist> and
// <polygons> elements (fanned into triangles by mesh.New, as OBJ's are);
// normals, texture coordinates, materials, units and the up axis are not
// read, so coordinates are as stored.
//
// Scene.Rig's joints are the skin's joints, found by SID under the
// instance's <skeleton> nodes (then by ID and by name; an IDREF_array
// names IDs): a joint's parent is its nearest ancestor that is a joint,
// and several top joints hang under a still joint "root" added at the
// origin. Heads are where the inverse bind matrices put the joints'
// origins, so the rest pose is the bind pose; a rest orientation the
// matrices also hold is folded into the clips, which play back exactly.
// The skin keeps each vertex's four largest weights, renormalized.
//
// Clips are the <animation_clip>s (their instanced animations, from their
// start to their end), then the animations no clip instances: together
// as one clip "default" when no two animate the same value, else one clip
// each. Node transform stacks (<matrix>, <translate>, <rotate>, <scale>,
// in order) are evaluated with their animated values — whole elements or
// members such as rotate's .ANGLE or translate's .X, LINEAR or STEP keys,
// whole matrices interpolated as rotation and translation — and each
// joint's skinning matrix is its node's global transform times its
// inverse bind matrix. A clip is sampled at opt.FPS, or with opt.FPS 0 at
// its own key times when they are evenly spaced from its start to its end
// (what meshrig writes), else at 30 fps; either way its first and last
// frames are its ends (frameSpan). opt.Clip keeps one clip, opt.Frames
// some frames of each, and only those are evaluated; what sampling will
// hold is decided before any of it is allocated, and more than 1.5 GiB is
// refused. Scene.Sequence is the rest mesh skinned by those matrices with
// every influence the file gives — what the rig plays, unless a vertex
// has more than four — and nil without animations.
//
// What a rig cannot hold, or meshrig does not read, is refused with an
// error wrapping format.ErrUnsupported that names it and its line: a joint
// whose skinning matrix scales or shears (named with the clip and frame),
// several skinned meshes, unskinned geometry, morph controllers, nodes
// instanced from libraries, lookat and skew transforms, BEZIER and other
// curved interpolation, projective matrices, polygons with holes, strips
// and fans, references to other documents, vertices without weight. The
// 1.5 kinematics libraries are not read. A malformed document gives an
// error with its line (format.ParseError), never a panic; one that ends
// early wraps format.ErrTruncated. Sizes the file declares are checked
// against the text before anything is allocated for them. Scene.Files
// lists name.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (*format.Scene, error) {
	sc, _, err := readScene(fsys, name, opt, defaults)
	return sc, err
}

// readScene is ReadScene within lim; wide reports whether some vertex
// has more than four influences (then the rig does not play the sequence
// exactly).
func readScene(fsys fs.FS, name string, opt format.SceneOptions, lim limits) (sc *format.Scene, wide bool, err error) {
	if opt.FPS < 0 || math.IsNaN(opt.FPS) || math.IsInf(opt.FPS, 0) {
		return nil, false, fmt.Errorf("sampling rate %v fps: want a positive number, or 0 for the file's own", opt.FPS)
	}
	if err := opt.Frames.Validate(); err != nil {
		return nil, false, err
	}
	root, err := open(fsys, name, lim)
	if err != nil {
		return nil, false, err
	}
	d, err := newDoc(root, lim)
	if err != nil {
		return nil, false, err
	}
	p, err := d.skinned()
	if err != nil {
		return nil, false, err
	}
	out := &format.Scene{Mesh: p.rig.Mesh, Rig: p.rig, Files: []string{name}}
	clips, err := d.clipsOf(p.scene)
	if err != nil {
		return nil, false, err
	}
	if clips, err = pick(clips, opt.Clip); err != nil || len(clips) == 0 {
		return out, p.wide, err
	}
	tms, err := plan(clips, opt, len(p.rig.Mesh.Verts), p.rig.Skeleton.Len(), lim.sample)
	if err != nil {
		return nil, false, err
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	smp, err := sample(ctx, p, clips, tms)
	if err != nil {
		return nil, false, err
	}
	out.Sequence, p.rig.Clips = smp.seq, smp.clips
	if err := p.rig.Validate(); err != nil {
		return nil, false, fmt.Errorf("the rig read is not valid: %w", err)
	}
	return out, p.wide, nil
}

// pick keeps the clip called name, or all when name is "".
func pick(clips []clipDef, name string) ([]clipDef, error) {
	if name == "" {
		return clips, nil
	}
	var names []string
	for _, c := range clips {
		if c.name == name {
			return []clipDef{c}, nil
		}
		names = append(names, c.name)
	}
	return nil, fmt.Errorf("no clip named %q (the file has %q)", name, names)
}

// open reads and parses a regular file of at most lim.file bytes. What
// is not a regular file (a named pipe would block) is refused before it
// is opened when fsys can tell, and after otherwise.
func open(fsys fs.FS, name string, lim limits) (*elem, error) {
	regular := func(st fs.FileInfo) error {
		switch {
		case !st.Mode().IsRegular():
			return format.NotRegular(name, st.Mode())
		case st.Size() > lim.file:
			return fmt.Errorf("%d bytes: %w (meshrig reads up to %d)", st.Size(), errTooLarge, lim.file)
		}
		return nil
	}
	if sfs, ok := fsys.(fs.StatFS); ok {
		st, err := sfs.Stat(name)
		if err != nil {
			return nil, err
		}
		if err := regular(st); err != nil {
			return nil, err
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err == nil {
		err = regular(st)
	}
	if err != nil {
		return nil, err
	}
	return parseXML(&capped{r: f, left: lim.file}, lim)
}

// capped fails a read past its last allowed byte, for files whose size
// Stat does not tell (decompressed .dae.gz).
type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One more byte tells a file of exactly the limit from a longer one.
		var one [1]byte
		n, err := io.ReadFull(c.r, one[:])
		if n > 0 {
			return 0, fmt.Errorf("the file is longer than the bytes meshrig reads: %w", errTooLarge)
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// parts is the skinned mesh of a document, read: its node tree, skin and
// the rig they make (without clips); wide reports a vertex of more than
// four influences.
type parts struct {
	scene *sceneData
	skin  *skinData
	skel  *skeleton
	rig   *rig.Rig
	wide  bool
}

// skinned reads the scene's skinned mesh.
func (d *doc) skinned() (*parts, error) {
	vs, err := d.visualScene()
	if err != nil {
		return nil, err
	}
	sc, err := d.sceneOf(vs)
	if err != nil {
		return nil, err
	}
	ctrl, err := d.ref(sc.inst, "url", sc.inst.get("url"), "controller")
	if err != nil {
		return nil, err
	}
	s, err := d.skinOf(ctrl)
	if err != nil {
		return nil, err
	}
	lk := &geomLooks{}
	pos, polys, err := d.meshOf(s.geom, lk)
	if err != nil {
		return nil, err
	}
	if err := d.weightsOf(s, len(pos)); err != nil {
		return nil, err
	}
	for i, p := range pos {
		pos[i] = s.bindShape.Apply(p)
	}
	rest, err := mesh.New(pos, polys)
	if err != nil {
		return nil, s.geom.errorf("%w", err)
	}
	if len(rest.Tris) == 0 {
		return nil, s.geom.errorf("no triangles or polygons: %w", format.ErrNoFrames)
	}
	if rest.Surface, err = lk.surface(rest, s.bindShape, d.materialsOf(sc.inst)); err != nil {
		return nil, s.geom.errorf("%w", err)
	}
	nodes, err := sc.jointNodes(s)
	if err != nil {
		return nil, err
	}
	sk, err := skeletonOf(sc, s, nodes)
	if err != nil {
		return nil, err
	}
	skin, wide := sk.skinOfRig(s)
	r := &rig.Rig{Mesh: rest, Skeleton: sk.skel, Skin: skin}
	if err := r.Validate(); err != nil {
		return nil, s.ctrl.errorf("%w", err)
	}
	return &parts{scene: sc, skin: s, skel: sk, rig: r, wide: wide}, nil
}
