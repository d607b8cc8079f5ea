package ledeng

import (
	"fmt"

	"github.com/meshrig/meshrig/method"
)

// Options controls the method. The zero value gives the paper's defaults.
type Options struct {
	// InitBones is the over-estimated cluster count of the initialization
	// (§4). Default 32; with Bones set, 1.25·Bones (rounded up), or
	// InitBones when that is more: removing 21 of the cow's 32 clusters
	// to reach 11 bones took 13 restarts for an error no lower (RMSE%
	// 1.445; from 14 clusters 1.437, in two thirds of the time).
	// The automatic count starts again from twice as many clusters when
	// Level stops it with three quarters of the initial bones or more
	// (up to 4·InitBones): the initialization's cap does not decide it.
	InitBones int
	// Bones, when positive, is the bone count asked for: the
	// initialization makes at least 1.25·Bones clusters, no pruning (Eq.
	// 11, joints that never bend, the allowance) goes below Bones, and
	// bones above it are removed the cheapest first (removalCost). The
	// rig has fewer only when the clustering finds fewer independently
	// moving parts; a Note then says so. 0 (the default) lets the motion
	// decide the count (see Prune). Bones overrides MaxBones.
	Bones int
	// MaxBones caps the final bone count: after pruning, the weakest bones
	// are removed until at most MaxBones remain. 0 means no cap.
	MaxBones int
	// Iterations of the rigging loop (§6). Default 20.
	Iterations int
	// Tolerance stops the rigging loop early when the relative decrease of
	// the reconstruction error over one iteration falls below it. Default
	// 1e-3; negative disables.
	Tolerance float64
	// MaxInfluences per vertex, 1 to 4. Default 4.
	MaxInfluences int
	// Smoothness is ω, the weight of the rigidness-Laplacian term (Eq. 3a,
	// 5) in unit-sphere units. Default 1e-3.
	Smoothness float64
	// SampleFrames is how many frames, spread over the motion, the
	// skeleton is found on; the final fit uses every frame. Default 40.
	SampleFrames int
	// Prune is the automatic count's stopping rule (Bones 0): beyond the
	// redundant bones of Eq. 11, the bones the others can best do without
	// (their neighbours take over their vertices) go, a few at a time,
	// while each bone removed raises the reconstruction error by less
	// than this fraction of it or by less than a fixed amount per vertex
	// and frame (boneWorth, in pruner.go), whichever allows more — or
	// while the error stays under 0.18% of the bounding diagonal, and
	// never past Level. Both are measured on the motion's error curve at
	// the current count, not on where the initialization started. When
	// the error leaves that allowance for good, the last rig within it is
	// kept (see pruner.go). Default 0.05; negative disables.
	Prune float64
	// Level bounds the automatic count's error (Bones 0): pruning keeps
	// no state whose RMS error in the rigging loop (soft joints, before
	// the exact skeletal fit, which lowers it 2–3×) is above Level percent
	// of the rest pose's bounding diagonal — but the initial one, which a
	// new search from twice the clusters then replaces (see InitBones), or
	// under the exact-fit floor (0.18% of the diagonal, pruner.go). It decides on motion
	// whose error curve has no knee (the elastic cow: 3% more error per
	// bone removed from 70 bones down to 15), where Prune alone stops
	// wherever one noisy step happens to cost more; articulated motion
	// stops at its knee far below it (0.3–0.5% of the diagonal on the
	// shared sequences). Default 1; negative disables.
	Level float64
	// Free skips the skeleton: plain skinning decomposition, one free rigid
	// transform per bone per frame (rig.NewFree form). Without joints every
	// bone lowers the error, so only Eq. 11 and MaxBones remove bones
	// (Prune does not apply).
	Free bool
	// Search is where the skeleton is found: on a coarsened mesh or on
	// the full one. The default, SearchAuto, searches the coarse mesh when
	// Bones is set and the full mesh for the automatic count. Ignored with
	// Free.
	Search Search
	// Refitted says the caller fits every frame's motion again after Rig
	// (meshrig rig --stretch fits scales, rotations and the root around
	// it), so the last fit of every frame's rotations is skipped: the
	// rig's joints and weights are the same, its rotations those of the
	// round before. The cow at 11 bones with --stretch: 0.05 s less,
	// RMSE% 0.8189 → 0.8209.
	Refitted bool
	// Seed makes any randomized choice repeatable. Default 1.
	Seed uint64
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

// Search says where Rig finds the skeleton.
type Search int

const (
	// SearchAuto is SearchCoarse when Options.Bones is set, SearchFull
	// for the automatic count. With the count given, the search only
	// places the bones, and the coarse mesh does that in a third to a
	// half of the time at an error still well below Dem Bones' (README).
	// The automatic count reads the motion's error curve, which the
	// coarse mesh shifts: from it the counts depend more on the initial
	// clusters (from 32, 48 and 64: cat-poses 29, 37, 32 bones;
	// lion-poses 22, 35, 34).
	SearchAuto Search = iota
	// SearchCoarse finds the skeleton on the mesh coarsened up to three
	// times (each level pairing a vertex with its nearest neighbour; a
	// level is made only while every initial cluster keeps 20 coarse
	// vertices, so a mesh too small is searched as it is), then fits the
	// rig on every vertex and frame once (coarse.go). With the automatic
	// count and no InitBones it starts from twice the default clusters.
	SearchCoarse
	// SearchFull finds the skeleton on every vertex: at Dem Bones'
	// counts the lowest error on articulated motion (cat-poses, lion and
	// horse-gallop 2–12% lower; the cow's 1% higher), in 2–3 times the
	// time.
	SearchFull
)

var searchNames = [...]string{"auto", "coarse", "full"}

// String is the search's name, as ParseSearch reads it.
func (s Search) String() string {
	if s < 0 || int(s) >= len(searchNames) {
		return fmt.Sprintf("Search(%d)", int(s))
	}
	return searchNames[s]
}

// ParseSearch reads "auto" (or ""), "coarse" or "full".
func ParseSearch(name string) (Search, error) {
	if name == "" {
		return SearchAuto, nil
	}
	for i, n := range searchNames {
		if n == name {
			return Search(i), nil
		}
	}
	return 0, fmt.Errorf("unknown search %q: auto, coarse or full", name)
}

// coarse reports whether Rig searches the coarsened mesh.
func (o Options) coarse() bool {
	return !o.Free && (o.Search == SearchCoarse || o.Search == SearchAuto && o.Bones > 0)
}

func (o Options) withDefaults() Options {
	if o.InitBones <= 0 && o.Bones <= 0 {
		o.InitBones = 32
	}
	if o.Iterations <= 0 {
		o.Iterations = 20
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-3
	}
	if o.MaxInfluences <= 0 || o.MaxInfluences > 4 {
		o.MaxInfluences = 4
	}
	if o.Smoothness == 0 {
		o.Smoothness = 1e-3
	}
	if o.Level == 0 {
		o.Level = 1
	}
	if o.Prune == 0 {
		o.Prune = 0.05
	}
	if o.SampleFrames <= 0 {
		o.SampleFrames = 40
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}
