package seq

import "fmt"

// Merge joins sequences that share one rest pose into one sequence with
// their clips in order. The first sequence's rest pose is kept; every other
// must have the same vertex count and faces. A clip whose name an earlier
// clip has is renamed name_2 (name_3, …), so names stay unique.
func Merge(parts ...*Sequence) (*Sequence, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no sequences to merge")
	}
	out := &Sequence{Rest: parts[0].Rest}
	names := map[string]bool{}
	for k, p := range parts {
		if err := SameFaces(out.Rest, p.Rest); err != nil {
			return nil, fmt.Errorf("sequence %d: %w", k+1, err)
		}
		off := out.F()
		out.Frames = append(out.Frames, p.Frames...)
		out.FrameNames = append(out.FrameNames, p.FrameNames...)
		for _, c := range p.Clips {
			c.Start += off
			c.End += off
			for k, base := 2, c.Name; names[c.Name]; k++ {
				c.Name = fmt.Sprintf("%s_%d", base, k)
			}
			names[c.Name] = true
			out.Clips = append(out.Clips, c)
		}
	}
	return out, nil
}
