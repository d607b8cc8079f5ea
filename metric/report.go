package metric

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Report holds the reconstruction error of a rig against a sequence. Its
// JSON form is what `meshrig eval --json` prints and `--report` writes.
type Report struct {
	Method      string  `json:"method,omitempty"`
	Seconds     float64 `json:"seconds,omitempty"`
	Vertices    int     `json:"vertices"`
	Frames      int     `json:"frames"`
	Bones       int     `json:"bones"`
	Joints      int     `json:"joints"`
	RMSEPercent float64 `json:"rmse_percent"`
	MaxPercent  float64 `json:"max_percent"`
	NormalRMS   float64 `json:"normal_rms"`
	// ACCUPercent is de Aguiar et al. 2008's accuracy: the mean vertex
	// distance in percent of the rest pose's longest bounding-box side.
	ACCUPercent float64 `json:"accu_percent"`
	// JointErrorPercent is set when a ground-truth skeleton is known.
	JointErrorPercent *float64 `json:"joint_error_percent,omitempty"`
	// FrameRMSEPercent is the RMSE% of each frame on its own.
	FrameRMSEPercent []float64 `json:"frame_rmse_percent"`
	// Diagonal is d, the rest pose's bounding-box diagonal, in model units.
	Diagonal float64 `json:"diagonal"`
	// Playback, when set, measures the evaluated file's own playback
	// (every influence it holds, as its format evaluates it) where the
	// report above measures the rig meshrig reads from it (at most four
	// influences per vertex): for a peer's result such as Dem Bones' FBX,
	// Playback is the peer's own error.
	Playback *Report `json:"playback,omitempty"`
}

// Bones counts the joints that move at least one vertex.
func Bones(r *rig.Rig) int {
	used := make([]bool, r.Skeleton.Len())
	for _, in := range r.Skin {
		for k, w := range in.Weight {
			if w > 0 {
				used[in.Joint[k]] = true
			}
		}
	}
	n := 0
	for _, u := range used {
		if u {
			n++
		}
	}
	return n
}

// Compare replays every clip of r, in order, against the frames of s and
// returns the errors. The rig's clips together must have s.F() frames and
// its mesh s.N() vertices.
func Compare(s *seq.Sequence, r *rig.Rig) (Report, error) {
	n, nf := s.N(), s.F()
	if len(r.Mesh.Verts) != n {
		return Report{}, fmt.Errorf("rig has %d vertices, the animation %d", len(r.Mesh.Verts), n)
	}
	total := 0
	for _, c := range r.Clips {
		total += c.Frames
	}
	if total != nf {
		return Report{}, fmt.Errorf("rig's clips have %d frames, the animation %d", total, nf)
	}
	type where struct{ clip, frame int }
	at := make([]where, 0, nf)
	for c, cl := range r.Clips {
		for f := 0; f < cl.Frames; f++ {
			at = append(at, where{c, f})
		}
	}
	rep := compare(s, r.Mesh.Tris, func(got []linalg.Vec3, f int) []linalg.Vec3 {
		return r.Frame(got, at[f].clip, at[f].frame)
	})
	rep.Bones, rep.Joints = Bones(r), r.Skeleton.Len()
	return rep, nil
}

// ComparePlayback measures the frames of played (a file's own playback,
// say, with every influence its format allows) against the frames of s,
// frame by frame: both must have the same vertex and frame counts. Bones
// and Joints are left 0 for the caller to fill.
func ComparePlayback(s, played *seq.Sequence) (Report, error) {
	if played.N() != s.N() {
		return Report{}, fmt.Errorf("playback has %d vertices, the animation %d", played.N(), s.N())
	}
	if played.F() != s.F() {
		return Report{}, fmt.Errorf("playback has %d frames, the animation %d", played.F(), s.F())
	}
	return compare(s, played.Rest.Tris, played.FrameInto), nil
}

// compare measures frame(·, f) for every frame f of s against s; tris are
// the faces of the frames measured.
func compare(s *seq.Sequence, tris [][3]int, frame func(got []linalg.Vec3, f int) []linalg.Vec3) Report {
	n, nf := s.N(), s.F()
	d := s.Diagonal()
	if d == 0 {
		d = 1
	}
	sq := make([]float64, nf)
	sum := make([]float64, nf)
	mx := make([]float64, nf)
	nsq := make([]float64, nf)
	ncount := make([]int, nf)
	par.For(nf, 1, func(lo, hi int) {
		var got, want []linalg.Vec3
		var na, nb []linalg.Vec3
		for f := lo; f < hi; f++ {
			got = frame(got, f)
			want = s.FrameInto(want, f)
			for i := range want {
				e := got[i].Sub(want[i]).Norm2()
				sq[f] += e
				sum[f] += math.Sqrt(e)
				mx[f] = math.Max(mx[f], e)
			}
			na = mesh.FaceNormals(na, got, tris)
			nb = mesh.FaceNormals(nb, want, s.Rest.Tris)
			for t := range nb {
				if nb[t] == (linalg.Vec3{}) {
					continue // a degenerate input face has no normal to match
				}
				nsq[f] += na[t].Sub(nb[t]).Norm2()
				ncount[f]++
			}
		}
	})
	rep := Report{Vertices: n, Frames: nf, Diagonal: d, FrameRMSEPercent: make([]float64, nf)}
	var all, nall, dist float64
	var nc int
	for f := 0; f < nf; f++ {
		all += sq[f]
		dist += sum[f]
		nall += nsq[f]
		nc += ncount[f]
		rep.MaxPercent = math.Max(rep.MaxPercent, 100*math.Sqrt(mx[f])/d)
		rep.FrameRMSEPercent[f] = 100 * math.Sqrt(sq[f]/float64(n)) / d
	}
	rep.RMSEPercent = 100 * math.Sqrt(all/float64(n*nf)) / d
	lo, hi := mesh.Bounds(s.Rest.Verts)
	if side := math.Max(hi[0]-lo[0], math.Max(hi[1]-lo[1], hi[2]-lo[2])); side > 0 {
		rep.ACCUPercent = 100 * dist / float64(n*nf) / side
	}
	if nc > 0 {
		rep.NormalRMS = math.Sqrt(nall / float64(nc))
	}
	return rep
}

// JointError returns the symmetric chamfer distance between joint sets a
// and b (mean of both directions) in percent of d.
func JointError(a, b []linalg.Vec3, d float64) float64 {
	if len(a) == 0 || len(b) == 0 || d == 0 {
		return math.Inf(1)
	}
	return 100 * (chamfer(a, b) + chamfer(b, a)) / 2 / d
}

// chamfer returns the mean over a of the distance to the nearest point of b.
func chamfer(a, b []linalg.Vec3) float64 {
	var s float64
	for _, p := range a {
		best := math.Inf(1)
		for _, q := range b {
			best = math.Min(best, p.Dist(q))
		}
		s += best
	}
	return s / float64(len(a))
}

// DeformingHeads returns the rest positions of the joints of r that move
// some vertex: a skinned rig's joint set when it serves as ground truth.
// Joints that skin nothing (a scene's placement nodes, such as Fox.glb's
// two joints on the ground at the origin) leave no trace in the mesh or
// its motion, so no method can find them and the chamfer distance would
// charge every method for them. With no skin every joint counts.
func DeformingHeads(r *rig.Rig) []linalg.Vec3 {
	moves := make([]bool, r.Skeleton.Len())
	for _, in := range r.Skin {
		for s, w := range in.Weight {
			if w > 0 {
				moves[in.Joint[s]] = true
			}
		}
	}
	var out []linalg.Vec3
	for j, jt := range r.Skeleton.Joints {
		if moves[j] {
			out = append(out, jt.Head)
		}
	}
	if len(out) == 0 {
		return Heads(&r.Skeleton)
	}
	return out
}

// Heads returns the rest positions of a skeleton's joints.
func Heads(s *rig.Skeleton) []linalg.Vec3 {
	out := make([]linalg.Vec3, s.Len())
	for j, jt := range s.Joints {
		out[j] = jt.Head
	}
	return out
}
