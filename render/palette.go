package render

import (
	"image/color"
	"math"
)

// JointColor returns the colour Rig gives joint j's region as linear
// 0–1 RGB: hues step by the golden ratio of a turn so joints near in index
// order (usually near in the body) differ strongly, at a fixed, soft
// saturation and value. It is deterministic, for legends elsewhere.
func JointColor(j int) [3]float64 {
	h := math.Mod(0.13+float64(j)*0.618033988749895, 1)
	return hsv(h, 0.55, 0.95)
}

func hsv(h, s, v float64) [3]float64 {
	i := math.Floor(h * 6)
	f := h*6 - i
	p, q, t := v*(1-s), v*(1-f*s), v*(1-(1-f)*s)
	switch int(i) % 6 {
	case 0:
		return [3]float64{v, t, p}
	case 1:
		return [3]float64{q, v, p}
	case 2:
		return [3]float64{p, v, t}
	case 3:
		return [3]float64{p, q, v}
	case 4:
		return [3]float64{t, p, v}
	}
	return [3]float64{v, p, q}
}

func rgb(c color.RGBA) [3]float64 {
	return [3]float64{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255}
}
