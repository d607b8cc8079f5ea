package libigl

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// ReadMotion reads the ground-truth motion that comes with a libigl rig
// folder laid out as the shared data's rigs/NAME/: the skeleton tgf
// (NAME.tgf), its weights beside it (NAME-weights.dmat or NAME.DMAT),
// and an animation NAME-anim.dmat (played through the true weights)
// and/or posed meshes poses/K.obj with the bone transforms poses/K.Tmat
// that made them (any of them may be gzip-compressed). m is the rest mesh
// the weights are for.
//
// It returns the true rig with its motion as one clip "truth" (30 fps)
// and the animation that motion makes, the frames a rig must match; nil,
// nil, nil when the folder has no weights or no motion (rigs/arm). The
// posed meshes' OBJ reader must be registered (import format/obj).
func ReadMotion(tgfPath string, m *mesh.Mesh) (*rig.Rig, *seq.Sequence, error) {
	dir := filepath.Dir(tgfPath)
	name := filepath.Base(dir)
	weights := firstFile(dir, name+"-weights.dmat.gz", name+".DMAT.gz", name+"-weights.dmat", name+".DMAT")
	if weights == "" {
		return nil, nil, nil
	}
	tgf, err := readWith(tgfPath, ReadTGF)
	if err != nil {
		return nil, nil, err
	}
	w, err := readWith(weights, ReadDMAT)
	if err != nil {
		return nil, nil, err
	}
	truth, boneJoint, err := Rig(m, tgf, w)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", weights, err)
	}
	anim := seq.New(m)
	anim.StartClip("truth", 30)
	var mats []linalg.Affine
	add := func(tr []linalg.Affine, verts []linalg.Vec3, what string) error {
		sm, err := SkinMatrices(truth, boneJoint, tr)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		mats = append(mats, sm...)
		return anim.AddFrame(verts, what)
	}
	if p := firstFile(dir, name+"-anim.dmat.gz", name+"-anim.dmat"); p != "" {
		a, err := readWith(p, ReadDMAT)
		if err != nil {
			return nil, nil, err
		}
		for f := 0; f < a.Cols; f++ {
			tr, err := AnimationFrame(a, f)
			if err != nil {
				return nil, nil, format.WithFile(err, p)
			}
			verts, err := Deform(m.Verts, w, tr)
			if err != nil {
				return nil, nil, format.WithFile(err, p)
			}
			if err := add(tr, verts, fmt.Sprintf("%s frame %d", p, f+1)); err != nil {
				return nil, nil, err
			}
		}
	}
	poses, _ := filepath.Glob(filepath.Join(dir, "poses", "*.Tmat*"))
	sort.Strings(poses)
	for _, p := range poses {
		tm, err := readWith(p, ReadTable)
		if err != nil {
			return nil, nil, err
		}
		tr, err := Transforms(tm)
		if err != nil {
			return nil, nil, format.WithFile(err, p)
		}
		posed, err := format.ReadMesh(strings.Replace(p, ".Tmat", ".obj", 1))
		if err != nil {
			return nil, nil, err
		}
		if len(posed.Verts) != len(m.Verts) {
			return nil, nil, fmt.Errorf("%s: %d vertices, the rest mesh %d", p, len(posed.Verts), len(m.Verts))
		}
		if err := add(tr, posed.Verts, p); err != nil {
			return nil, nil, err
		}
	}
	if anim.F() == 0 {
		return nil, nil, nil
	}
	truth.Clips = []rig.Clip{rig.ClipFromSkinMatrices(&truth.Skeleton, "truth", 30, anim.F(), mats)}
	return truth, anim, nil
}

// firstFile returns the first of names that exists in dir, or "".
func firstFile(dir string, names ...string) string {
	for _, n := range names {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// readWith opens a (possibly gzipped) file and parses it with read,
// naming the file in any error.
func readWith[T any](path string, read func(r io.Reader) (T, error)) (T, error) {
	rc, err := format.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer rc.Close()
	v, err := read(rc)
	if err != nil {
		return v, format.WithFile(err, path)
	}
	return v, nil
}
