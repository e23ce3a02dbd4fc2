import type { ReactNode } from 'react';
import * as css from './my.css.ts';

/**
 * A setting on my pages as a card with one switch (role="switch"), saved as soon as it is turned:
 * its title, a label and an explanation, the switch, the state said politely (aria-live), and below
 * it whatever `problem` says (a refusal or why it is unavailable), which the switch then names in
 * its description. Element ids start with `id`; `problem` carries the id `${id}-problem`.
 */
export function SwitchCard(props: {
  id: string;
  title: string;
  label: string;
  text: string;
  on: boolean;
  busy: boolean;
  disabled?: boolean;
  stateText: string;
  problem?: ReactNode;
  onToggle: () => void;
}) {
  const { id, on, busy } = props;
  return (
    <section className={css.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={css.cardTitle}>
        {props.title}
      </h2>
      <div className={css.switchRow}>
        <div className={css.field}>
          <span id={`${id}-label`} className={css.label}>
            {props.label}
          </span>
          <p id={`${id}-text`} className={css.hint}>
            {props.text}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          className={css.switchButton}
          aria-checked={on}
          aria-labelledby={`${id}-label`}
          aria-describedby={props.problem ? `${id}-text ${id}-problem` : `${id}-text`}
          aria-busy={busy || undefined}
          disabled={props.disabled}
          onClick={() => {
            if (!busy) props.onToggle();
          }}
        />
      </div>
      <p className={css.switchState} aria-live="polite">
        {props.stateText}
      </p>
      {props.problem}
    </section>
  );
}
