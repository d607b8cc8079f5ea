package viewer

import (
	"fmt"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// Report is State.report: the rig measured against the input
// (metric.Compare), errors in % of the rest diagonal d. Without an input
// only Bones is set and the rest are null.
type Report struct {
	Bones int      `json:"bones"`
	RMSE  *float64 `json:"rmse"`
	Max   *float64 `json:"max"`
	// PerFrame holds each clip's per-frame RMSE%, clip by clip.
	PerFrame   [][]float64 `json:"perFrame"`
	WorstClip  *int        `json:"worstClip"`
	WorstFrame *int        `json:"worstFrame"`
}

// checkInput checks r can be measured against the input: same vertex
// count, and clips playing as many frames as the input has.
func (s *Server) checkInput(r *rig.Rig) error {
	in := s.opt.Input
	if in == nil {
		return nil
	}
	if in.N() != len(r.Mesh.Verts) {
		return fmt.Errorf("the rig has %d vertices, the input %d: they must be the same mesh", len(r.Mesh.Verts), in.N())
	}
	if len(r.Clips) == 0 {
		return fmt.Errorf("the rig has no animation to compare with the input's %d frames", in.F())
	}
	return nil
}

// measure builds the history step of r: its report against the input.
func (s *Server) measure(r *rig.Rig) (*step, error) {
	rep := Report{Bones: metric.Bones(r)}
	if s.opt.Input != nil {
		m, err := metric.Compare(s.opt.Input, r)
		if err != nil {
			return nil, err
		}
		rep.RMSE, rep.Max = &m.RMSEPercent, &m.MaxPercent
		wc, wf, worst := 0, 0, -1.0
		at := 0
		for c, cl := range r.Clips {
			per := m.FrameRMSEPercent[at : at+cl.Frames : at+cl.Frames]
			rep.PerFrame = append(rep.PerFrame, per)
			for f, e := range per {
				if e > worst {
					wc, wf, worst = c, f, e
				}
			}
			at += cl.Frames
		}
		rep.WorstClip, rep.WorstFrame = &wc, &wf
	}
	return &step{rig: r, report: rep}, nil
}

// diagonal is d: the input's rest diagonal when there is an input (what
// metric.Compare divides by), else the rig's mesh's; 1 for a point.
func (s *Server) diagonal(r *rig.Rig) float64 {
	var d float64
	if s.opt.Input != nil {
		d = s.opt.Input.Diagonal()
	} else {
		d = mesh.Diagonal(r.Mesh.Verts)
	}
	if d == 0 {
		d = 1
	}
	return d
}

// inputFrame returns the input frame that frame f of the rig's clip c
// plays: the rig's clips play the input's frames in order.
func inputFrame(r *rig.Rig, c, f int) int {
	at := 0
	for k := 0; k < c; k++ {
		at += r.Clips[k].Frames
	}
	return at + f
}
