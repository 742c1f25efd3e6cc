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
