/** One scrape of a Prometheus text exposition: `name{label="value",…}` → sample value. */
export class Scrape {
  private constructor(private readonly samples: ReadonlyMap<string, number>) {}

  /** GETs `url` (a `/metrics` endpoint) and parses the answer; fails on anything but 200. */
  static async of(url: string): Promise<Scrape> {
    const response = await fetch(url);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    return Scrape.parse(await response.text());
  }

  static parse(text: string): Scrape {
    const samples = new Map<string, number>();
    for (const line of text.split('\n')) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
      if (match) samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
    }
    return new Scrape(samples);
  }

  /** The sample of `name` whose labels include `labels`, summed over the others (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    let total = 0;
    for (const [key, value] of this.samples) {
      const [sampleName, labelText = ''] = key.split(/(?=\{)/);
      if (sampleName !== name) continue;
      if (Object.entries(labels).every(([label, wanted]) => labelText.includes(`${label}="${wanted}"`))) total += value;
    }
    return total;
  }

  /** Every distinct value of `label` among the samples of `name`. */
  labelValues(name: string, label: string): string[] {
    const values = new Set<string>();
    for (const key of this.samples.keys()) {
      if (!key.startsWith(`${name}{`)) continue;
      const match = new RegExp(`[{,]${label}="([^"]*)"`).exec(key);
      if (match) values.add(match[1]);
    }
    return [...values].sort();
  }

  names(): string[] {
    return [...new Set([...this.samples.keys()].map((key) => key.split('{')[0]))].sort();
  }
}

/** The sum of one sample over several scrapes: a counter across all processes. */
export function sumOf(scrapes: readonly Scrape[], name: string, labels: Record<string, string> = {}): number {
  return scrapes.reduce((total, scrape) => total + scrape.value(name, labels), 0);
}
