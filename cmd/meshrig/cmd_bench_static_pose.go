package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/libigl"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// poseTruth is a ground-truth motion of a static case, for the pose
// test: the true rig with its motion as clips, and the animation that
// motion makes (the frames to match).
type poseTruth struct {
	rig  *rig.Rig
	anim *seq.Sequence
}

// loadPoseTruth reads the motion that comes with a case: a libigl rig's
// poses (rigs/wolf: poses/*.Tmat with the posed meshes) or animation
// (rigs/elephant: NAME-anim.dmat, played through the true weights), or
// a glTF character's own clips. It returns nil for a case without one
// (rigs/arm, a plain mesh).
func loadPoseTruth(c staticCase, m *mesh.Mesh) (*poseTruth, error) {
	if c.truth == "" {
		return nil, nil
	}
	if !strings.HasSuffix(strings.ToLower(strings.TrimSuffix(c.truth, ".gz")), ".tgf") {
		sc, err := format.ReadScene(c.truth, format.SceneOptions{})
		if err != nil {
			return nil, err
		}
		if sc.Rig == nil || sc.Sequence == nil || len(sc.Rig.Clips) == 0 {
			return nil, nil
		}
		return &poseTruth{rig: sc.Rig, anim: sc.Sequence}, nil
	}
	dir := filepath.Dir(c.truth)
	name := filepath.Base(dir)
	weights := firstFile(dir, name+"-weights.dmat.gz", name+".DMAT.gz", name+"-weights.dmat", name+".DMAT")
	if weights == "" {
		return nil, nil
	}
	tgf, err := readWith(c.truth, libigl.ReadTGF)
	if err != nil {
		return nil, err
	}
	w, err := readWith(weights, libigl.ReadDMAT)
	if err != nil {
		return nil, err
	}
	truth, boneJoint, err := libigl.Rig(m, tgf, w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", weights, err)
	}
	anim := seq.New(m)
	anim.StartClip("truth", 30)
	var mats []linalg.Affine
	add := func(tr []linalg.Affine, verts []linalg.Vec3, what string) error {
		sm, err := libigl.SkinMatrices(truth, boneJoint, tr)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		mats = append(mats, sm...)
		return anim.AddFrame(verts, what)
	}
	if p := firstFile(dir, name+"-anim.dmat.gz", name+"-anim.dmat"); p != "" {
		a, err := readWith(p, libigl.ReadDMAT)
		if err != nil {
			return nil, err
		}
		for f := 0; f < a.Cols; f++ {
			tr, err := libigl.AnimationFrame(a, f)
			if err != nil {
				return nil, format.WithFile(err, p)
			}
			verts, err := libigl.Deform(m.Verts, w, tr)
			if err != nil {
				return nil, format.WithFile(err, p)
			}
			if err := add(tr, verts, fmt.Sprintf("%s frame %d", p, f+1)); err != nil {
				return nil, err
			}
		}
	}
	poses, _ := filepath.Glob(filepath.Join(dir, "poses", "*.Tmat*"))
	sort.Strings(poses)
	for _, p := range poses {
		tm, err := readWith(p, libigl.ReadTable)
		if err != nil {
			return nil, err
		}
		tr, err := libigl.Transforms(tm)
		if err != nil {
			return nil, format.WithFile(err, p)
		}
		posed, err := format.ReadMesh(strings.Replace(p, ".Tmat", ".obj", 1))
		if err != nil {
			return nil, err
		}
		if len(posed.Verts) != len(m.Verts) {
			return nil, fmt.Errorf("%s: %d vertices, the rest mesh %d", p, len(posed.Verts), len(m.Verts))
		}
		if err := add(tr, posed.Verts, p); err != nil {
			return nil, err
		}
	}
	if anim.F() == 0 {
		return nil, nil
	}
	truth.Clips = []rig.Clip{rig.ClipFromSkinMatrices(&truth.Skeleton, "truth", 30, anim.F(), mats)}
	return &poseTruth{rig: truth, anim: anim}, nil
}

// poseError is the pose test: every joint of ours takes the true motion
// of the true joint whose weights overlap its own the most
// (metric.MatchJoints), our weights blend those motions, and the result
// is measured against the true animation (RMSE% on the rig as exported,
// as metric.Compare does; bones may stretch, as the two skeletons'
// joints sit in different places). It returns that error and the true
// rig's own, the floor set by the truth's four-influence skin.
func poseError(ours *rig.Rig, t *poseTruth) (got, truth float64, err error) {
	nj, nt := ours.Skeleton.Len(), t.rig.Skeleton.Len()
	match, err := metric.MatchJoints(ours.Skin, nj, t.rig.Skin, nt)
	if err != nil {
		return 0, 0, err
	}
	driven := &rig.Rig{Mesh: ours.Mesh, Skeleton: ours.Skeleton, Skin: ours.Skin}
	var pose, sm []linalg.Affine
	for _, c := range t.rig.Clips {
		mats := make([]linalg.Affine, 0, c.Frames*nj)
		for f := 0; f < c.Frames; f++ {
			pose = t.rig.Skeleton.Pose(&c, f, pose)
			sm = t.rig.Skeleton.SkinMatrices(pose, sm)
			for _, m := range match {
				mats = append(mats, sm[m])
			}
		}
		driven.Clips = append(driven.Clips, rig.ClipFromSkinMatrices(&ours.Skeleton, c.Name, c.FPS, c.Frames, mats))
	}
	a, err := metric.Compare(t.anim, driven)
	if err != nil {
		return 0, 0, err
	}
	b, err := metric.Compare(t.anim, t.rig)
	if err != nil {
		return 0, 0, err
	}
	return a.RMSEPercent, b.RMSEPercent, nil
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
