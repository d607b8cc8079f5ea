package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/libigl"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// givenFlags are rig's flags for rigging with what the user already has:
// a skeleton (--skeleton FILE), a skinned rig (--rig), helper bones on a
// body rig (--helpers), a painted mask (--mask). All go through refit.
type givenFlags struct {
	rig             string
	solve           string
	refineJoints    bool
	fitSkeleton     bool
	helpers         int
	lock            string
	helperTranslate bool
	mask            string
}

func (o *givenFlags) add(f *pflag.FlagSet) {
	f.StringVar(&o.rig, "rig", "", "start from this skinned rig (glTF, Collada, FBX): its joints, names and hierarchy are kept, and --solve says what is fitted")
	f.StringVar(&o.solve, "solve", "both", "with --skeleton FILE or --rig: what to fit: both (weights and motion), weights (the rig's animation kept) or motion (its weights kept)")
	f.BoolVar(&o.refineJoints, "refine-joints", false, "with --skeleton FILE or --rig: let the joints' rest positions move where the motion locates them better (the hierarchy stays)")
	f.BoolVar(&o.fitSkeleton, "fit-skeleton", false, "with --skeleton FILE: map a skeleton in another scale or place onto the mesh by a similarity transform")
	f.IntVar(&o.helpers, "helpers", 0, "with --rig BODY: add this many helper joints where the body rig misses the animation, keeping the locked joints' animation")
	f.StringVar(&o.lock, "lock", "all", "with --rig: the joints whose animation is kept bit for bit, comma-separated names, or all (with --helpers); without --helpers the other joints' tracks and the weights are refitted (Dem Bones' demLock)")
	f.BoolVar(&o.helperTranslate, "helper-translate", false, "with --helpers: helper joints translate (slide) as well as turn; with --lock alone, the unlocked joints do")
	f.StringVar(&o.mask, "mask", "", "with --rig: solve weights only where this mask is not 0 (any value above 0 re-solves the vertex fully): vertex-colour (the rest mesh's first colour set, mean of R, G, B), vertex-colour-inverse (1 − that mean: Dem Bones' convention, white keeps) or a file of one value per vertex per line")
}

// skeletonFile is --skeleton's value when it names a file.
func (o *rigOptions) skeletonFile() string {
	if o.skeleton == "tree" || o.skeleton == "none" {
		return ""
	}
	return o.skeleton
}

// givenActive reports whether rig starts from what the user has.
func (o *rigOptions) givenActive() bool { return o.skeletonFile() != "" || o.given.rig != "" }

// checkGiven refuses flag combinations before any input is read.
func (o *rigOptions) checkGiven() error {
	gf := o.given
	if _, err := refit.ParseSolve(gf.solve); err != nil {
		return fmt.Errorf("--solve: %w", err)
	}
	if p := o.skeletonFile(); p != "" && !strings.Contains(filepath.Base(p), ".") {
		return fmt.Errorf("--skeleton %q: want tree, none or a skeleton file (glTF, Collada, FBX, libigl .tgf)", p)
	}
	if o.skeletonFile() != "" && gf.rig != "" {
		return fmt.Errorf("--skeleton FILE and --rig both give a skeleton: give one")
	}
	if !o.givenActive() {
		switch {
		case gf.solve != "both", gf.refineJoints:
			return fmt.Errorf("--solve and --refine-joints need --skeleton FILE or --rig")
		case gf.helpers != 0:
			return fmt.Errorf("--helpers needs --rig BODY")
		case gf.mask != "":
			return fmt.Errorf("--mask needs --rig (the weights a mask keeps)")
		}
	}
	if gf.fitSkeleton && o.skeletonFile() == "" {
		return fmt.Errorf("--fit-skeleton needs --skeleton FILE")
	}
	if gf.helpers != 0 {
		if gf.rig == "" {
			return fmt.Errorf("--helpers needs --rig BODY")
		}
		if err := intIn("--helpers", gf.helpers, 1, 64); err != nil {
			return err
		}
	}
	if gf.helperTranslate && gf.helpers == 0 && gf.lock == "all" {
		return fmt.Errorf("--helper-translate needs --helpers or --lock")
	}
	if gf.lock != "all" && gf.rig == "" {
		return fmt.Errorf("--lock needs --rig (the joints it keeps)")
	}
	return nil
}

// rigGiven rigs s with the skeleton or rig the user gave: it reads it,
// checks it against the animation and runs refit.
func rigGiven(ctx context.Context, g *globals, o *rigOptions, plan *safefile.Plan, s *seq.Sequence) (*rig.Rig, string, error) {
	gf := o.given
	solve, _ := refit.ParseSolve(gf.solve)
	ro := refit.Options{MaxInfluences: o.maxInf, Iterations: o.iterations, Solve: solve, RefineJoints: gf.refineJoints,
		Helpers: gf.helpers, HelperTranslate: gf.helperTranslate, Notes: func(msg string) { g.logf("note: %s", msg) }}
	var start *rig.Rig
	var from string
	if path := o.skeletonFile(); path != "" {
		sk, ref, clips, err := readSkeleton(ctx, path)
		if err != nil {
			return nil, "", err
		}
		placed, pl, err := refit.PlaceSkeleton(sk, s.Rest.Verts, gf.fitSkeleton, ref)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		if gf.fitSkeleton {
			g.logf("note: %s mapped onto the mesh: scale %.6g, shift (%.6g, %.6g, %.6g)", path, pl.Scale, pl.Shift[0], pl.Shift[1], pl.Shift[2])
		}
		if solve != refit.Weights || gf.fitSkeleton {
			// --skeleton gives joints only: the motion is solved from
			// scratch unless --solve weights keeps the file's (which a
			// mapped skeleton cannot: it is in the file's scale and place).
			clips = nil
		}
		start, from = &rig.Rig{Mesh: s.Rest, Skeleton: placed, Clips: clips}, path
	} else {
		sc, err := format.ReadScene(gf.rig, format.SceneOptions{Context: ctx})
		if err != nil {
			return nil, "", err
		}
		plan.Read(sc.Files...)
		if sc.Rig == nil {
			return nil, "", fmt.Errorf("%s holds no skinned rig", gf.rig)
		}
		start, from = sc.Rig, gf.rig
		if n, m := len(start.Mesh.Verts), s.N(); n != m {
			return nil, "", fmt.Errorf("%s has %d vertices, the animation %s has %d: the rig must be of the animated mesh", gf.rig, n, animName(s), m)
		}
		if gf.helpers > 0 || gf.lock != "all" {
			lock, err := lockJoints(gf.rig, &start.Skeleton, gf.lock)
			if err != nil {
				return nil, "", err
			}
			ro.Lock = lock
		}
		if gf.mask != "" {
			mask, err := readMask(gf.mask, start)
			if err != nil {
				return nil, "", err
			}
			ro.Mask = mask
		}
	}
	if err := plan.Check(); err != nil {
		return nil, "", err
	}
	progress, finish := g.progress("refitting")
	ro.Progress = progress
	out, rep, err := registry.RefitAnimation(ctx, start, s, ro)
	finish(err)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", from, err)
	}
	if gf.helpers > 0 || gf.lock != "all" {
		removed := 100 * (1 - rep.RMSEPercent/rep.BodyRMSEPercent)
		g.logf("locked joints kept, %d helper joints added; RMSE%% %.4f for the body rig alone, %.4f with the helpers (%.0f%% of the error removed)", len(rep.Helpers), rep.BodyRMSEPercent, rep.RMSEPercent, removed)
		for _, h := range rep.Helpers {
			jt := out.Skeleton.Joints[h]
			g.logf("  %s under %s", jt.Name, out.Skeleton.Joints[jt.Parent].Name)
		}
	} else {
		g.logf("refit: %d rounds; RMSE%% %.4f at the start (weights from the %s, motion from the %s)", rep.Rounds, rep.StartRMSEPercent, rep.WeightsFrom, rep.MotionFrom)
	}
	return out, "refit", nil
}

// animName names the animation in errors: its first frame's source.
func animName(s *seq.Sequence) string {
	if len(s.FrameNames) > 0 {
		return strings.SplitN(s.FrameNames[0], "#", 2)[0]
	}
	return "input"
}

// readSkeleton reads the skeleton of a scene file (glTF, Collada, FBX) or
// a libigl .tgf, with the vertices of the file's own mesh when it has one
// (for --fit-skeleton), and its motion (the rig's clips, or an unskinned
// skeleton's: what --solve weights keeps); weights are ignored.
func readSkeleton(ctx context.Context, path string) (rig.Skeleton, []linalg.Vec3, []rig.Clip, error) {
	lower := strings.ToLower(path)
	if strings.HasSuffix(lower, ".tgf") || strings.HasSuffix(lower, ".tgf.gz") {
		f, err := os.Open(path)
		if err != nil {
			return rig.Skeleton{}, nil, nil, err
		}
		defer f.Close()
		var in io.Reader = f
		if strings.HasSuffix(lower, ".gz") {
			z, err := gzip.NewReader(f)
			if err != nil {
				return rig.Skeleton{}, nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			in = z
		}
		t, err := libigl.ReadTGF(bufio.NewReader(in))
		if err != nil {
			var pe *format.ParseError
			if errors.As(err, &pe) && pe.File == "" {
				pe.File = path
			}
			return rig.Skeleton{}, nil, nil, err
		}
		// libigl.Rig builds the hierarchy from the bones; the uniform
		// weights it needs are dropped.
		nb := len(t.Bones)
		w := &libigl.Matrix{Rows: 1, Cols: nb, Data: make([]float64, nb)}
		for k := range w.Data {
			w.Data[k] = 1 / float64(max(nb, 1))
		}
		r, _, err := libigl.Rig(onePoint(), t, w)
		if err != nil {
			return rig.Skeleton{}, nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return r.Skeleton, nil, nil, nil
	}
	sc, err := format.ReadScene(path, format.SceneOptions{Context: ctx})
	if err != nil {
		return rig.Skeleton{}, nil, nil, err
	}
	var ref []linalg.Vec3
	if sc.Mesh != nil {
		ref = sc.Mesh.Verts
	}
	if sc.Rig == nil && sc.Skeleton != nil && sc.Skeleton.Len() > 0 {
		// A skeleton without a skin (Dem Bones' Bone_Trans.fbx).
		return *sc.Skeleton, ref, sc.SkeletonClips, nil
	}
	if sc.Rig == nil || sc.Rig.Skeleton.Len() == 0 {
		return rig.Skeleton{}, nil, nil, fmt.Errorf("%s holds no skeleton", path)
	}
	if sc.Rig.Mesh != nil {
		ref = sc.Rig.Mesh.Verts
	}
	return sc.Rig.Skeleton, ref, sc.Rig.Clips, nil
}

// lockJoints parses --lock: all, or comma-separated joint names of sk.
func lockJoints(file string, sk *rig.Skeleton, list string) ([]rig.JointID, error) {
	if list == "all" {
		return nil, nil
	}
	var out []rig.JointID
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for j, jt := range sk.Joints {
			if jt.Name == name {
				out, found = append(out, rig.JointID(j)), true
			}
		}
		if !found {
			return nil, fmt.Errorf("--lock: %s has no joint %q", file, name)
		}
	}
	return out, nil
}

// readMask reads --mask: vertex-colour (the rig's rest mesh's first
// colour set, mean of R, G, B), vertex-colour-inverse (1 − that mean, so
// white keeps: Dem Bones' per-vertex colour lock, where it blends grey
// vertices' old and new weights; refit re-solves every vertex not 0 fully)
// or a file of one value per vertex per line.
func readMask(spec string, r *rig.Rig) ([]float64, error) {
	n := len(r.Mesh.Verts)
	lower := strings.ReplaceAll(spec, "color", "colour")
	if lower == "vertex-colour" || lower == "vertex-colour-inverse" {
		// Inverse reads Dem Bones' convention: white keeps, darker solves.
		inverse := lower == "vertex-colour-inverse"
		value := func(v [4]float32) float64 {
			m := (float64(v[0]) + float64(v[1]) + float64(v[2])) / 3
			if inverse {
				return max(0, 1-m)
			}
			return m
		}
		sf := r.Mesh.Surface
		if sf == nil || len(sf.Colors) == 0 {
			return nil, fmt.Errorf("--mask %s: the rig's mesh has no vertex colours (give a file of per-vertex values)", spec)
		}
		c := sf.Colors[0]
		mask := make([]float64, n)
		if c.Index == nil {
			if len(c.Values) != n {
				return nil, fmt.Errorf("--mask %s: %d colours for %d vertices", spec, len(c.Values), n)
			}
			for i, v := range c.Values {
				mask[i] = value(v)
			}
			return mask, nil
		}
		// Per corner: a vertex is masked in when any corner is.
		for k, vi := range c.Index {
			if t := k / 3; t < len(r.Mesh.Tris) {
				i := r.Mesh.Tris[t][k%3]
				mask[i] = max(mask[i], value(c.Values[vi]))
			}
		}
		return mask, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return nil, fmt.Errorf("--mask: %w", err)
	}
	defer f.Close()
	var mask []float64
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("%s:%d: mask value %q: want a number ≥ 0", spec, line, t)
		}
		mask = append(mask, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	if len(mask) != n {
		return nil, fmt.Errorf("%s: %d mask values, the rig has %d vertices", spec, len(mask), n)
	}
	return mask, nil
}

// onePoint is a one-vertex mesh: libigl.Rig needs one for its weights.
func onePoint() *mesh.Mesh { return &mesh.Mesh{Verts: []linalg.Vec3{{}}} }
