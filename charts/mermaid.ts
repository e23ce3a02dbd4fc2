import type { Chart, ChartState } from './chart.ts';

/** A Mermaid `stateDiagram-v2` of a chart (used by `npm run flows` for docs/flows/<machine>.md). */
export function toMermaid(chart: Chart): string {
  // Readable ids: a state's own key where it is unique in the machine (and not a Mermaid keyword),
  // else its whole path. Composite states get no alias line: `state "x" as id { }` trips Mermaid.
  const reserved = new Set(['end', 'state', 'note', 'direction', 'class', 'classDef', 'style', 'click']);
  const keyCount = new Map<string, number>();
  for (const s of chart.states) keyCount.set(s.key, (keyCount.get(s.key) ?? 0) + 1);
  const clean = (x: string) => x.replace(/[^A-Za-z0-9_]/g, '_');
  const byIdForKey = new Map(chart.states.map((s) => [s.id, s.key]));
  const sid = (id: string) => {
    const key = byIdForKey.get(id) ?? id;
    return keyCount.get(key) === 1 && !reserved.has(key) && /^[A-Za-z]/.test(key) ? clean(key) : `s_${clean(id)}`;
  };
  const label = (text: string) => text.replace(/[:;#{}"]/g, ' ').replace(/\s+/g, ' ').trim();
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const lines: string[] = ['stateDiagram-v2'];

  const emit = (state: ChartState, indent: string) => {
    if (state.type === 'history') lines.push(`${indent}state "H" as ${sid(state.id)}`);
    else if (!state.children.length && sid(state.id) !== state.key) lines.push(`${indent}state "${label(state.key)}" as ${sid(state.id)}`);
    else if (!state.children.length) lines.push(`${indent}${sid(state.id)}`);
    if (state.children.length) {
      lines.push(`${indent}state ${sid(state.id)} {`);
      const kids = state.children.map((c) => byId.get(c)!);
      if (state.type === 'parallel') {
        kids.forEach((k, i) => {
          if (i > 0) lines.push(`${indent}  --`);
          emit(k, `${indent}  `);
        });
      } else {
        if (state.initial) lines.push(`${indent}  [*] --> ${sid(state.initial)}`);
        kids.forEach((k) => emit(k, `${indent}  `));
      }
      lines.push(`${indent}}`);
    }
    if (state.type === 'final') lines.push(`${indent}${sid(state.id)} --> [*]`);
  };

  const root = byId.get(chart.root)!;
  const top = root.children.map((c) => byId.get(c)!);
  if (root.type === 'parallel') {
    top.forEach((k, i) => {
      if (i > 0) lines.push('  --');
      emit(k, '  ');
    });
  } else {
    if (root.initial) lines.push(`  [*] --> ${sid(root.initial)}`);
    top.forEach((k) => emit(k, '  '));
  }
  for (const t of chart.transitions) {
    if (t.source === chart.root) continue; // listed under "Handled in every state" instead
    const targets = t.targets.length ? t.targets : [t.source];
    for (const target of targets) lines.push(`  ${sid(t.source)} --> ${sid(target)}: ${label(t.label)}`);
  }
  return lines.join('\n');
}

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The whole Markdown page for one machine. */
export function toFlowDoc(chart: Chart, file: string): string {
  const out = [
    `# ${chart.title}`,
    '',
    `Skapad av \`npm run flows\` från \`${file}\` (ändra inte för hand).`,
    '',
  ];
  if (chart.description) out.push(chart.description, '');
  out.push('```mermaid', toMermaid(chart), '```', '', '## Tillstånd', '', '| Tillstånd | Vad det betyder |', '| --- | --- |');
  for (const s of chart.states) {
    if (s.id === chart.root) continue;
    const extra = s.invokes.length ? ` (kör ${s.invokes.map((i) => `\`${i.src}\``).join(', ')})` : '';
    out.push(`| \`${s.id}\`${s.type === 'final' ? ' (slut)' : ''} | ${cell(s.description ?? '—')}${extra} |`);
  }
  out.push('', '## Övergångar', '', '| Från | Vid | Villkor | Till | Vad som händer |', '| --- | --- | --- | --- | --- |');
  for (const t of chart.transitions) {
    const from = t.source === chart.root ? '(varje tillstånd)' : `\`${t.source}\``;
    const to = t.targets.length ? t.targets.map((x) => `\`${x}\``).join(', ') : '(stannar)';
    out.push(`| ${from} | \`${t.eventType || '(direkt)'}\` | ${t.guard ? `\`${t.guard}\`` : ''} | ${to} | ${cell(t.description ?? '')} |`);
  }
  out.push('');
  return out.join('\n');
}
