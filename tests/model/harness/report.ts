import { coverageFigures, type CoverageReport } from '../../../charts/chart.ts';
import type { MachineModel } from './model.ts';

/**
 * docs/coverage/paths/<machine>.json — read by other tools (the /flows page among them, which loads
 * only the machine it shows). The shape of each is fixed:
 * { id, title, states: { total, covered, uncovered[] },
 *   transitions: { total, covered, uncovered[] }, paths: [ { description, steps[] } ] }
 * and docs/coverage/paths/index.json lists every machine's figures (no paths) for the list.
 * A step is { text, event, states, transitions }: the plain-language step, the event type, the
 * active state ids after it, and the keys of the transitions it took (chart.ts).
 */
export type { CoverageReport, CoverageStep as ReportStep } from '../../../charts/chart.ts';

export function toReport(models: MachineModel[]): CoverageReport {
  return {
    machines: models.map((m) => ({
      id: m.id,
      title: m.chart.title,
      states: { total: m.states.total, covered: m.states.covered, uncovered: m.states.uncovered },
      transitions: { total: m.transitions.total, covered: m.transitions.covered, uncovered: m.transitions.uncovered },
      paths: m.paths.map((p) => ({
        description: p.description,
        steps: p.steps.map((s) => ({ text: s.text, event: s.event, states: s.states, transitions: s.transitions })),
      })),
    })),
  };
}

/** The report as `npm run test:paths` writes it: file name under docs/coverage/paths/ → its text. */
export function reportFiles(report: CoverageReport): Map<string, string> {
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  return new Map([
    ['index.json', json({ machines: report.machines.map(coverageFigures) })],
    ...report.machines.map((m) => [`${m.id}.json`, json(m)] as const),
  ]);
}

const pct = (covered: number, total: number) => (total === 0 ? '100 %' : `${Math.floor((covered / total) * 100)} %`);

export function toMarkdown(models: MachineModel[]): string {
  const out: string[] = [
    '# Testade vägar',
    '',
    'Skapad av `npm run test:paths` från maskinerna i machines/ (ändra inte för hand).',
    'Varje väg nedan körs två gånger av de modellbaserade testerna: mot maskinen ensam och genom gränssnittet.',
    '',
    '| Maskin | Tillstånd | Övergångar | Vägar |',
    '| --- | --- | --- | --- |',
    ...models.map(
      (m) =>
        `| [${m.chart.title}](#${m.id.toLowerCase()}) | ${m.states.covered}/${m.states.total} (${pct(m.states.covered, m.states.total)}) | ${m.transitions.covered}/${m.transitions.total} (${pct(m.transitions.covered, m.transitions.total)}) | ${m.paths.length} |`,
    ),
    '',
  ];
  for (const m of models) {
    out.push(`<a id="${m.id.toLowerCase()}"></a>`, '', `## ${m.chart.title}`, '');
    if (m.chart.description) out.push(m.chart.description, '');
    out.push(`Källa: \`${m.file}\`. Tillstånd ${m.states.covered}/${m.states.total}, övergångar ${m.transitions.covered}/${m.transitions.total}.`, '');
    if (m.states.uncovered.length || m.transitions.uncovered.length) {
      out.push('**Inte täckt:**', '');
      for (const s of m.states.uncovered) out.push(`- tillstånd \`${s}\``);
      for (const t of m.transitions.uncovered) out.push(`- övergång \`${t}\``);
      out.push('');
    }
    if (m.notes.length) {
      out.push('Att veta:', '');
      for (const n of m.notes) out.push(`- ${n.replace(/\n/g, ' ')}`);
      out.push('');
    }
    m.paths.forEach((p, i) => {
      out.push(`### ${m.id} väg ${i + 1}: ${p.description}`, '');
      p.steps.forEach((s, j) => out.push(`${j + 1}. ${s.text}`));
      out.push('');
    });
  }
  return out.join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function toHtml(models: MachineModel[]): string {
  const body: string[] = [];
  body.push('<h1>Testade vägar</h1>');
  body.push('<p>Skapad av <code>npm run test:paths</code> från maskinerna i <code>machines/</code>. Varje väg körs mot maskinen ensam och genom gränssnittet.</p>');
  body.push('<table><thead><tr><th scope="col">Maskin</th><th scope="col">Tillstånd</th><th scope="col">Övergångar</th><th scope="col">Vägar</th></tr></thead><tbody>');
  for (const m of models) {
    const ok = !m.states.uncovered.length && !m.transitions.uncovered.length;
    body.push(
      `<tr class="${ok ? 'ok' : 'gap'}"><th scope="row"><a href="#${esc(m.id)}">${esc(m.chart.title)}</a></th><td>${m.states.covered}/${m.states.total}</td><td>${m.transitions.covered}/${m.transitions.total}</td><td>${m.paths.length}</td></tr>`,
    );
  }
  body.push('</tbody></table>');
  for (const m of models) {
    body.push(`<section id="${esc(m.id)}"><h2>${esc(m.chart.title)}</h2>`);
    if (m.chart.description) body.push(`<p>${esc(m.chart.description)}</p>`);
    body.push(`<p class="src">Källa: <code>${esc(m.file)}</code></p>`);
    if (m.states.uncovered.length || m.transitions.uncovered.length) {
      body.push('<div class="gap" role="alert"><strong>Inte täckt:</strong><ul>');
      for (const s of m.states.uncovered) body.push(`<li>tillstånd <code>${esc(s)}</code></li>`);
      for (const t of m.transitions.uncovered) body.push(`<li>övergång <code>${esc(t)}</code></li>`);
      body.push('</ul></div>');
    }
    if (m.notes.length) body.push(`<ul class="notes">${m.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
    m.paths.forEach((p, i) => {
      body.push(`<details><summary>Väg ${i + 1}: ${esc(p.description)}</summary><ol>`);
      for (const s of p.steps) body.push(`<li>${esc(s.text)}</li>`);
      body.push('</ol></details>');
    });
    body.push('</section>');
  }
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Greetie: testade vägar</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1d1b26; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: .25rem .75rem; text-align: left; }
tr.gap th, div.gap { color: #8a1020; } div.gap { border-left: 4px solid #8a1020; padding-left: 1rem; }
details { margin: .5rem 0; } summary { cursor: pointer; font-weight: 600; } .notes, .src { color: #555; }
</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
