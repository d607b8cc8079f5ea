package character

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// bodies maps each kind to its definition. Units are meters; Y is up.
var bodies = map[Kind]func() *body{
	Biped:     biped,
	Quadruped: quadruped,
	Hand:      hand,
	Snake:     snake,
}

type v3 = linalg.Vec3

var (
	xAxis = v3{1, 0, 0}
	yAxis = v3{0, 1, 0}
	zAxis = v3{0, 0, 1}
)

// biped is a humanoid in a T-pose facing +Z, walking forward.
func biped() *body {
	b := &body{}
	add := func(bn bone) int { b.bones = append(b.bones, bn); return len(b.bones) - 1 }
	pelvis := add(bone{name: "pelvis", parent: -1, head: v3{0, 1.0, 0}, radius: 0.14})
	spine := add(bone{name: "spine", parent: pelvis, head: v3{0, 1.18, 0}, radius: 0.13, axis: yAxis, amp: 0.15, cycles: 1})
	chest := add(bone{name: "chest", parent: spine, head: v3{0, 1.36, 0}, radius: 0.14, axis: xAxis, amp: 0.08, cycles: 2})
	neck := add(bone{name: "neck", parent: chest, head: v3{0, 1.5, 0}, radius: 0.055, axis: xAxis, amp: 0.15, cycles: 2})
	add(bone{name: "head", parent: neck, head: v3{0, 1.66, 0.01}, radius: 0.09, tip: v3{0, 1.86, 0.02}, tipRadius: 0.09, axis: yAxis, amp: 0.35, cycles: 1, phase: 1})
	for _, side := range []float64{1, -1} {
		s := "_l"
		if side < 0 {
			s = "_r"
		}
		sh := add(bone{name: "shoulder" + s, parent: chest, head: v3{side * 0.19, 1.48, 0}, radius: 0.05,
			axis: zAxis, bias: -side * 1.1, amp: 0.25, cycles: 1, phase: math.Pi / 2 * (1 + side)})
		el := add(bone{name: "elbow" + s, parent: sh, head: v3{side * 0.45, 1.48, 0}, radius: 0.04,
			axis: yAxis, amp: side * 1.1, oneSided: true, cycles: 1, phase: math.Pi / 2 * (1 - side)})
		add(bone{name: "wrist" + s, parent: el, head: v3{side * 0.7, 1.48, 0}, radius: 0.033, tip: v3{side * 0.86, 1.48, 0}, tipRadius: 0.03,
			axis: zAxis, amp: 0.4, cycles: 2})
		hip := add(bone{name: "hip" + s, parent: pelvis, head: v3{side * 0.1, 0.92, 0}, radius: 0.075,
			axis: xAxis, amp: 0.55, cycles: 1, phase: math.Pi / 2 * (1 - side)})
		knee := add(bone{name: "knee" + s, parent: hip, head: v3{side * 0.1, 0.5, 0}, radius: 0.055,
			axis: xAxis, amp: 1.1, oneSided: true, cycles: 1, phase: math.Pi / 2 * (1 - side)})
		add(bone{name: "ankle" + s, parent: knee, head: v3{side * 0.1, 0.09, 0}, radius: 0.045, tip: v3{side * 0.1, 0.05, 0.17}, tipRadius: 0.04,
			axis: xAxis, amp: 0.35, cycles: 1})
	}
	b.rootMotion = func(u float64) (linalg.Vec3, linalg.Quat) {
		return v3{0, 0.03 * math.Sin(4*math.Pi*u), 0.6 * u}, linalg.QuatFromAxisAngle(yAxis, 0.1*math.Sin(2*math.Pi*u))
	}
	b.shells = []shell{{v3{0.04, 1.77, 0.09}, 0.022, 4}, {v3{-0.04, 1.77, 0.09}, 0.022, 4}}
	return b
}

// quadruped is a four-legged animal facing +X, trotting, wagging its tail.
func quadruped() *body {
	b := &body{}
	add := func(bn bone) int { b.bones = append(b.bones, bn); return len(b.bones) - 1 }
	hips := add(bone{name: "hips", parent: -1, head: v3{0, 1.0, 0}, radius: 0.17})
	back := add(bone{name: "back", parent: hips, head: v3{0.35, 1.02, 0}, radius: 0.18, axis: yAxis, amp: 0.12, cycles: 1})
	chest := add(bone{name: "chest", parent: back, head: v3{0.7, 1.05, 0}, radius: 0.19, axis: zAxis, amp: 0.08, cycles: 2})
	neck := add(bone{name: "neck", parent: chest, head: v3{0.95, 1.15, 0}, radius: 0.09, axis: zAxis, amp: 0.3, cycles: 1, phase: 0.5})
	add(bone{name: "head", parent: neck, head: v3{1.15, 1.35, 0}, radius: 0.1, tip: v3{1.42, 1.3, 0}, tipRadius: 0.06, axis: yAxis, amp: 0.35, cycles: 1})
	tail := hips
	for k := 0; k < 4; k++ {
		x := -0.2 - 0.22*float64(k)
		tail = add(bone{name: "tail" + string(rune('1'+k)), parent: tail, head: v3{x, 1.02 + 0.04*float64(k), 0}, radius: 0.06 - 0.01*float64(k),
			tip: v3{x - 0.22, 1.06 + 0.04*float64(k), 0}, tipRadius: 0.035, axis: yAxis, amp: 0.45, cycles: 2, phase: 0.7 * float64(k)})
	}
	for _, leg := range []struct {
		name   string
		x, z   float64
		parent int
		phase  float64
	}{{"front_l", 0.72, 0.13, chest, 0}, {"front_r", 0.72, -0.13, chest, math.Pi}, {"hind_l", 0.0, 0.13, hips, math.Pi}, {"hind_r", 0.0, -0.13, hips, 0}} {
		up := add(bone{name: "upper_" + leg.name, parent: leg.parent, head: v3{leg.x, 0.93, leg.z}, radius: 0.08,
			axis: zAxis, amp: 0.45, cycles: 1, phase: leg.phase})
		low := add(bone{name: "lower_" + leg.name, parent: up, head: v3{leg.x + 0.03, 0.52, leg.z}, radius: 0.05,
			axis: zAxis, amp: 0.8, oneSided: true, cycles: 1, phase: leg.phase})
		add(bone{name: "foot_" + leg.name, parent: low, head: v3{leg.x, 0.14, leg.z}, radius: 0.04, tip: v3{leg.x + 0.08, 0.03, leg.z}, tipRadius: 0.035,
			axis: zAxis, amp: 0.4, cycles: 1, phase: leg.phase + 1})
	}
	b.rootMotion = func(u float64) (linalg.Vec3, linalg.Quat) {
		return v3{0.8 * u, 0.02 * math.Sin(4*math.Pi*u), 0}, linalg.QuatFromAxisAngle(xAxis, 0.05*math.Sin(2*math.Pi*u))
	}
	b.shells = []shell{{v3{1.3, 1.4, 0.06}, 0.025, 4}, {v3{1.3, 1.4, -0.06}, 0.025, 4}}
	return b
}

// hand is a right hand, fingers along +Y, palm facing −Z, fingers
// flexing in a wave.
func hand() *body {
	b := &body{}
	add := func(bn bone) int { b.bones = append(b.bones, bn); return len(b.bones) - 1 }
	wrist := add(bone{name: "wrist", parent: -1, head: v3{0, 0, 0}, radius: 0.022})
	fingers := []struct {
		name   string
		base   v3
		lens   [3]float64
		radius float64
	}{
		{"index", v3{0.036, 0.09, 0}, [3]float64{0.04, 0.025, 0.02}, 0.0078},
		{"middle", v3{0.012, 0.095, 0}, [3]float64{0.045, 0.028, 0.021}, 0.008},
		{"ring", v3{-0.012, 0.09, 0}, [3]float64{0.042, 0.026, 0.02}, 0.0077},
		{"pinky", v3{-0.036, 0.08, 0}, [3]float64{0.033, 0.02, 0.018}, 0.007},
	}
	for f, fg := range fingers {
		parent, y := wrist, fg.base[1]
		for k := 0; k < 3; k++ {
			bn := bone{name: fg.name + string(rune('1'+k)), parent: parent, head: v3{fg.base[0], y, 0}, radius: fg.radius * (1 - 0.1*float64(k)),
				axis: xAxis, amp: -1.0, oneSided: true, cycles: 1, phase: 0.8 * float64(f)}
			y += fg.lens[k]
			if k == 2 {
				bn.tip, bn.tipRadius = v3{fg.base[0], y, 0}, 0.8*fg.radius
			}
			parent = add(bn)
		}
	}
	thumb := []v3{{0.04, 0.02, -0.01}, {0.06, 0.045, -0.015}, {0.075, 0.068, -0.02}}
	parent := wrist
	for k, p := range thumb {
		bn := bone{name: "thumb" + string(rune('1'+k)), parent: parent, head: p, radius: 0.011 * (1 - 0.1*float64(k)),
			axis: v3{0.6, -0.4, 0.7}, amp: -0.7, oneSided: true, cycles: 1, phase: 3.5}
		if k == 2 {
			bn.tip, bn.tipRadius = v3{0.085, 0.09, -0.022}, 0.008
		}
		parent = add(bn)
	}
	b.rootMotion = func(u float64) (linalg.Vec3, linalg.Quat) {
		return v3{}, linalg.QuatFromAxisAngle(v3{1, 0.3, 0}, 0.3*math.Sin(2*math.Pi*u))
	}
	b.shells = []shell{{v3{0.036, 0.11, 0.014}, 0.005, 1}}
	return b
}

// snake is a tapering chain swimming with a travelling wave along +X.
func snake() *body {
	b := &body{}
	const n = 12
	for k := 0; k < n; k++ {
		bn := bone{name: "seg" + string(rune('a'+k)), parent: k - 1, head: v3{0.15 * float64(k), 0, 0}, radius: 0.07 - 0.004*float64(k),
			axis: v3{0.15, 1, 0}.Unit(), amp: 0.35, cycles: 1, phase: -0.7 * float64(k)}
		if k == 0 {
			bn.amp = 0
		}
		if k == n-1 {
			bn.tip, bn.tipRadius = v3{0.15 * n, 0, 0}, 0.03
		}
		b.bones = append(b.bones, bn)
	}
	b.rootMotion = func(u float64) (linalg.Vec3, linalg.Quat) {
		return v3{-0.5 * u, 0, 0}, linalg.QuatFromAxisAngle(yAxis, 0.3*math.Sin(2*math.Pi*u+0.7))
	}
	b.shells = []shell{{v3{0.75, 0.11, 0}, 0.03, 5}}
	return b
}
