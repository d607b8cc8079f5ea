package refit

import (
	"fmt"

	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
)

// Solve says what Animation fits; the rest is kept from the rig given.
type Solve int

const (
	// Both fits weights and motion (the zero value).
	Both Solve = iota
	// Weights fits the weights only; the rig's clips are kept as they
	// are, so they must cover the animation's frames.
	Weights
	// Motion fits the joint rotations and root translation only; the
	// rig's skin is kept as it is.
	Motion
)

// String is the name ParseSolve takes.
func (s Solve) String() string {
	switch s {
	case Both:
		return "both"
	case Weights:
		return "weights"
	case Motion:
		return "motion"
	}
	return fmt.Sprintf("Solve(%d)", int(s))
}

// ParseSolve returns the Solve named s: both (also ""), weights or motion.
func ParseSolve(s string) (Solve, error) {
	for _, v := range []Solve{Both, Weights, Motion} {
		if s == v.String() {
			return v, nil
		}
	}
	if s == "" {
		return Both, nil
	}
	return Both, fmt.Errorf("unknown solve %q (have both, weights, motion)", s)
}

// Options controls Animation. The zero value gives the defaults.
type Options struct {
	// MaxInfluences per vertex, 1 to 4. Default 4.
	MaxInfluences int
	// Iterations bounds the rounds of rotation fit and weight solve.
	// Default 20.
	Iterations int
	// Tolerance stops the rounds once one lowers the fit's squared error
	// by less than this fraction. Default 1e-3; negative runs every round.
	Tolerance float64
	// Solve picks what is fitted: Both (default), Weights or Motion.
	Solve Solve
	// RefineJoints lets the joints' rest positions move where the motion
	// locates them better (skinning.FitJoints); the hierarchy, names and
	// order stay. Off by default: the heads come back bit for bit.
	RefineJoints bool
	// Mask, when not nil, holds one value per vertex: a vertex whose
	// value is 0 keeps the rig's weights bit for bit, the others are
	// solved (a painted mask; Dem Bones' vertex-colour masks). The rig's
	// skin must then fit its mesh, and Solve must fit weights.
	Mask []float64
	// Helpers, when positive, adds this many helper joints to the rig
	// instead of refitting it: see helpers.go. The rig's clips must cover
	// the animation's frames.
	Helpers int
	// Lock lists the joints whose animation Helpers keeps bit for bit;
	// nil locks every joint of the rig. Unlocked joints turn to fit.
	// Lock without Helpers refits the unlocked joints of the rig alone
	// (Dem Bones' demLock): their tracks, and every vertex's weights over
	// its own joints and the unlocked ones (Mask still keeps weights).
	Lock []rig.JointID
	// HelperTranslate lets helper joints translate as well as turn
	// (sliding helpers); by default they only turn about their heads.
	// With Lock and no Helpers, the unlocked joints are the helpers.
	HelperTranslate bool
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

func (o Options) withDefaults() Options {
	if o.MaxInfluences <= 0 || o.MaxInfluences > 4 {
		o.MaxInfluences = 4
	}
	if o.Iterations <= 0 {
		o.Iterations = 20
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-3
	}
	return o
}

// Report says how a refit went. RMSE figures are in percent of the rest
// pose's bounding-box diagonal, measured on the fit before export (the
// exported rig replays it to rounding; metric.Compare measures that).
type Report struct {
	// StartRMSEPercent is the error of the starting point: the rig's own
	// skin (or weights by proximity to the bones) and motion (its clips,
	// or rigid fits of each joint's vertices, whichever fits better).
	StartRMSEPercent float64
	// RMSEPercent is the error of the result.
	RMSEPercent float64
	// Rounds run.
	Rounds int
	// WeightsFrom is "skin" (the rig's own) or "proximity";
	// MotionFrom is "clips" (the rig's own) or "rigid fits".
	WeightsFrom, MotionFrom string
	// BodyRMSEPercent is, with Helpers, the error of the rig as given
	// (its clips and skin, no helpers); Helpers lists the joints added.
	BodyRMSEPercent float64
	Helpers         []rig.JointID
}
