// Joint velocity limits read straight from the URDF text, independently of
// the server's parser: every <joint name="..."> element's <limit velocity="...">.

export function urdfVelocityLimits(urdf: string): Map<string, number> {
  const limits = new Map<string, number>();
  for (const joint of urdf.matchAll(/<joint\b([^>]*)>([\s\S]*?)<\/joint>/g)) {
    const name = /\bname\s*=\s*"([^"]*)"/.exec(joint[1]!)?.[1];
    const velocity = /<limit\b[^>]*\bvelocity\s*=\s*"([^"]*)"/.exec(joint[2]!)?.[1];
    if (name !== undefined && velocity !== undefined) limits.set(name, Number(velocity));
  }
  return limits;
}

/** Every <joint name="..."> element's <limit lower="..." upper="...">, read the same way. */
export function urdfPositionLimits(urdf: string): Map<string, { lower: number; upper: number }> {
  const limits = new Map<string, { lower: number; upper: number }>();
  for (const joint of urdf.matchAll(/<joint\b([^>]*)>([\s\S]*?)<\/joint>/g)) {
    const name = /\bname\s*=\s*"([^"]*)"/.exec(joint[1]!)?.[1];
    const limit = /<limit\b([^>]*)>/.exec(joint[2]!)?.[1];
    const lower = limit && /\blower\s*=\s*"([^"]*)"/.exec(limit)?.[1];
    const upper = limit && /\bupper\s*=\s*"([^"]*)"/.exec(limit)?.[1];
    if (name !== undefined && lower && upper) limits.set(name, { lower: Number(lower), upper: Number(upper) });
  }
  return limits;
}
