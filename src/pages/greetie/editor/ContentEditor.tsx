import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import { EDITOR_PANELS, EDITOR_TOOLS, editorPanelMachine, type EditorTool, type FocusTarget } from '../../../../machines/compose/editorPanel.ts';
import { screenOf } from '../../../components/flow.ts';
import { inspect } from '../../../inspect.ts';
import { ANIMATIONS, STICKERS, TEXT_COLORS, TEXT_FONTS, stickerUrl, type TextColor, type TextFont } from '../../../../contract/catalogue.ts';
import { PHOTO_ACCEPT, PHOTO_MAX_BYTES, UPLOAD_LIMITS_MB, isPhotoType, mediaTypeOf, mediaTypeOfName } from '../../../../contract/media.ts';
import { keepInside } from './bounds.ts';
import { ElementVisual, placedStyle } from './ContentLayer.tsx';
import * as css from './editor.css.ts';
import { EmojiPicker } from './EmojiPicker.tsx';
import {
  KEY_STEPS,
  MAX_ELEMENTS,
  MAX_TEXT_LENGTH,
  addElement,
  applyGesture,
  applyKeyAction,
  createElement,
  elementKey,
  keyAction,
  limitText,
  type ContentElement,
  type GestureStart,
  type KeyAction,
  type Point,
} from './elements.ts';
import { DEFAULT_TEXT_COLOR, DEFAULT_TEXT_FONT } from './layout.ts';
import { LottiePlayer } from './LottiePlayer.tsx';
import { useMeasured } from './measure.ts';
import { useFinePointer, useReducedMotion } from './motion.ts';

export interface ContentEditorProps {
  /** The greetie's photo or video; null while there is none (a neutral frame is shown). */
  mediaUrl: string | null;
  mediaKind: 'photo' | 'video' | null;
  /** The content, controlled: every change comes back through `onChange`. */
  elements: readonly ContentElement[];
  onChange: (elements: ContentElement[]) => void;
  /** Uploads a picture element's image (POST /api/greetie/{id}/picture) and answers its url. */
  onPicture: (file: File) => Promise<string>;
}

type Panel = EditorTool;
const PANELS = EDITOR_TOOLS;

const COLOR_KEYS: Record<TextColor, string> = {
  '#FFFFFF': 'white',
  '#212B36': 'dark',
  '#ED5AA4': 'pink',
  '#7635DC': 'purple',
  '#00AB55': 'green',
  '#FFC107': 'yellow',
  '#1890FF': 'blue',
};

interface Gesture {
  key: string;
  pointers: Map<number, Point>;
  start: GestureStart;
  current: ContentElement;
}

/**
 * The content step's editor: the media, in the greetie's frame shape (layout.ts), with its
 * elements laid over it. Add text, emoji, stickers, animations and pictures; drag to move, pinch
 * to scale and turn, tap to select; or with the keyboard on a focused element: arrows move, + and
 * - scale, [ and ] turn, Delete removes. Every element is kept wholly inside the picture
 * (bounds.ts). At most 30 elements; a text holds at most 200 characters. The keyboard help shows
 * where a mouse or trackpad is the input, or once the keyboard is used to move around (Tab) or
 * to move an element: a phone's on-screen keyboard has no Tab, and a tap is no sign of a keyboard.
 */
export function ContentEditor({ mediaUrl, mediaKind, elements, onChange, onPicture }: ContentEditorProps) {
  const { t } = useTranslation('editor');
  const reduced = useReducedMotion();
  const [selected, setSelected] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const finePointer = useFinePointer();
  const [keyboard, setKeyboard] = useState(false);
  const layerRef = useRef<HTMLDivElement>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const tools = useRef(new Map<Panel, HTMLButtonElement>());
  const panelRef = useRef<HTMLElement>(null);
  const pendingFocus = useRef<string | 'toolbar' | null>(null);
  const opening = useRef(false);
  // Which panel is open is the chart's (machines/compose/editorPanel.ts); scroll and focus are the page's.
  const [panelLogic] = useState(() =>
    editorPanelMachine.provide({
      actions: {
        revealPanel: () => {
          opening.current = true;
        },
        returnFocus: (_, p: FocusTarget) => {
          const back = (p.editing && buttons.current.get(p.editing)) || (p.tool && tools.current.get(p.tool));
          back?.focus();
        },
      },
    }),
  );
  const panelActor = useActorRef(panelLogic, { inspect });
  const shown = useSelector(panelActor, (s) => screenOf(s, EDITOR_PANELS));
  const editing = useSelector(panelActor, (s) => (s.hasTag('editingText') ? s.context.editing : null));
  const panel: Panel | null = shown === 'closed' ? null : shown === 'editingText' ? 'text' : shown;
  const gesture = useRef<Gesture | null>(null);
  const latest = useRef(elements);
  const helpId = useId();
  const keysId = useId();
  const panelId = useId();
  const keys = elements.map(elementKey);
  const measured = useMeasured(layerRef, keys.join(' '));
  const measuredRef = useRef(measured);
  const showKeys = finePointer || keyboard;

  useLayoutEffect(() => {
    latest.current = elements;
    measuredRef.current = measured;
  });

  /** The element kept inside the picture as the page has laid it out. */
  const inside = (el: ContentElement, index: number): ContentElement => {
    const m = measuredRef.current;
    return keepInside(el, m?.boxes.get(elementKey(el, index)), m?.frame);
  };

  // Whatever moved an element's edge past the picture (a draft from before elements were kept
  // inside, a text that grew, a picture or font that loaded, a turn): it is moved back in.
  useLayoutEffect(() => {
    const current = latest.current;
    const next = current.map(inside);
    if (next.some((el, i) => el !== current[i])) {
      latest.current = next;
      onChange(next);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `inside` reads refs; it runs when the layout or the elements change
  }, [measured, elements]);

  // Tab, anywhere on the page while the editor is shown, means a keyboard is the input. (Focus
  // itself is no sign: the editor moves it to an element a tap has just added.)
  useEffect(() => {
    if (keyboard) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Tab') setKeyboard(true);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [keyboard]);

  // A panel opened by the person is brought into view (below the picture it may start off the
  // screen of a phone), and focus goes into it: to the text field, or else to its title.
  useEffect(() => {
    const box = panelRef.current;
    if (!opening.current || !box) return;
    opening.current = false;
    const target = box.querySelector<HTMLElement>('textarea') ?? box.querySelector<HTMLElement>('h2');
    target?.focus({ preventScroll: true });
    box.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'nearest' });
  }, [panel, editing, reduced]);

  // Focus follows what the person did once the parent has passed the new list back.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    const el = target === 'toolbar' ? tools.current.get(PANELS[0]!) : buttons.current.get(target);
    if (el || target === 'toolbar') pendingFocus.current = null;
    el?.focus();
  }, [elements]);

  const full = elements.length >= MAX_ELEMENTS;
  const selectedIndex = selected === null ? -1 : keys.indexOf(selected);
  const selectedElement = selectedIndex >= 0 ? elements[selectedIndex] : undefined;

  const nameOf = (el: ContentElement, index: number): string => {
    const type = t(`type.${el.type}`);
    switch (el.type) {
      case 'text':
      case 'emoji':
        return t('name', { type, value: el.value });
      case 'sticker':
        return t('name', { type, value: t(`sticker.names.${el.value}`) });
      case 'lottie':
        return t('name', { type, value: t(`lottie.names.${el.value}`) });
      case 'picture':
        return t('pictureName', { number: elements.slice(0, index + 1).filter((e) => e.type === 'picture').length });
    }
  };

  const replace = (index: number, el: ContentElement) => {
    const next = [...latest.current];
    next[index] = inside(el, index);
    latest.current = next;
    onChange(next);
  };

  const add = (spec: Parameters<typeof createElement>[0]) => {
    if (latest.current.length >= MAX_ELEMENTS) return;
    const el = createElement(spec, latest.current.length);
    const next = addElement(latest.current, el);
    latest.current = next;
    onChange(next);
    const key = elementKey(el, next.length - 1);
    setSelected(key);
    panelActor.send({ type: 'element.added' });
    pendingFocus.current = key;
    setAnnouncement(t('announce.added', { name: nameOf(el, next.length - 1) }));
  };

  const remove = (index: number) => {
    const current = latest.current;
    const el = current[index];
    if (!el) return;
    const next = current.filter((_, i) => i !== index);
    const name = nameOf(el, index);
    latest.current = next;
    onChange(next);
    const neighbour = next[Math.min(index, next.length - 1)];
    const neighbourKey = neighbour ? elementKey(neighbour, Math.min(index, next.length - 1)) : null;
    setSelected(neighbourKey);
    panelActor.send({ type: 'element.removed', key: elementKey(el, index) });
    pendingFocus.current = neighbourKey ?? 'toolbar';
    setAnnouncement(t('announce.removed', { name }));
  };

  const act = (index: number, action: KeyAction, large = false) => {
    const el = latest.current[index];
    if (!el) return;
    if (action === 'remove') remove(index);
    else replace(index, applyKeyAction(el, action, large));
  };

  const onElementKeyDown = (index: number) => (e: KeyboardEvent<HTMLButtonElement>) => {
    const action = keyAction(e.key);
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    setKeyboard(true);
    e.preventDefault();
    act(index, action, e.shiftKey);
  };

  // ---- Pointers: one drags, two pinch (scale) and turn ----

  const rebase = (g: Gesture) => {
    const rect = layerRef.current?.getBoundingClientRect();
    g.start = { element: g.current, pointers: [...g.pointers.values()], frame: { width: rect?.width ?? 0, height: rect?.height ?? 0 } };
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const hit = (e.target as Element).closest<HTMLElement>('[data-element-key]');
    const g = gesture.current;
    if (g && (!hit || hit.dataset.elementKey === g.key) && g.pointers.size < 2) {
      // A second finger anywhere on the frame joins the gesture on the element held.
      g.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      rebase(g);
      layerRef.current?.setPointerCapture?.(e.pointerId);
      return;
    }
    if (!hit) {
      setSelected(null);
      return;
    }
    const key = hit.dataset.elementKey!;
    const el = latest.current[keys.indexOf(key)];
    if (!el) return;
    setSelected(key);
    const next: Gesture = { key, pointers: new Map([[e.pointerId, { x: e.clientX, y: e.clientY }]]), start: undefined!, current: el };
    rebase(next);
    gesture.current = next;
    layerRef.current?.setPointerCapture?.(e.pointerId);
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !g.pointers.has(e.pointerId)) return;
    g.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const index = latest.current.findIndex((el, i) => elementKey(el, i) === g.key);
    if (index < 0) return;
    const moved = inside(applyGesture(g.start, [...g.pointers.values()]), index);
    const { x, y, scale, rotation } = g.current;
    if (moved.x === x && moved.y === y && moved.scale === scale && moved.rotation === rotation) return;
    g.current = moved;
    replace(index, moved);
  };

  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !g.pointers.delete(e.pointerId)) return;
    if (g.pointers.size === 0) gesture.current = null;
    else rebase(g);
  };

  const toggle = (tool: Panel) => panelActor.send({ type: 'user.pickedTool', tool });
  const close = () => panelActor.send({ type: 'user.closed' });
  const escape = () => panelActor.send({ type: 'user.pressedEscape' });

  return (
    <div className={css.editor}>
      <p id={helpId} className={css.hint}>
        {t('help')}
      </p>
      <div className={css.frame}>
        {mediaUrl && mediaKind === 'photo' && (
          <img
            className={css.mediaFill}
            src={mediaUrl}
            alt={t('media.photo')}
            draggable={false}
          />
        )}
        {mediaUrl && mediaKind === 'video' && (
          <video
            className={css.mediaFill}
            src={mediaUrl}
            aria-label={t('media.video')}
            muted
            loop
            playsInline
            autoPlay={!reduced}
          />
        )}
        {!mediaUrl && elements.length === 0 && <p className={css.emptyFrameText}>{t('media.none')}</p>}
        <div
          ref={layerRef}
          className={css.editLayer}
          role="group"
          aria-label={t('layerLabel')}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
        >
          {elements.map((el, i) => {
            const key = keys[i]!;
            return (
              <button
                key={key}
                ref={(b) => {
                  if (b) buttons.current.set(key, b);
                  else buttons.current.delete(key);
                }}
                type="button"
                data-element-key={key}
                className={`${css.placed} ${css.elementButton}`}
                style={placedStyle(el)}
                aria-label={nameOf(el, i)}
                aria-pressed={selected === key}
                aria-describedby={showKeys ? `${helpId} ${keysId}` : helpId}
                onKeyDown={onElementKeyDown(i)}
                onFocus={() => setSelected(key)}
              >
                <ElementVisual element={el} />
              </button>
            );
          })}
        </div>
      </div>

      <p className={css.countLine}>
        <span>{t('count', { count: elements.length, max: MAX_ELEMENTS })}</span>
      </p>
      {full && (
        <p className={css.error} role="status">
          {t('limitReached', { max: MAX_ELEMENTS })}
        </p>
      )}

      {selectedElement && (
        <div className={css.selectedBar} role="group" aria-label={t('selected.label', { name: nameOf(selectedElement, selectedIndex) })}>
          <button type="button" className={css.toolButton} onClick={() => act(selectedIndex, 'shrink')}>
            {t('selected.smaller')}
          </button>
          <button type="button" className={css.toolButton} onClick={() => act(selectedIndex, 'grow')}>
            {t('selected.larger')}
          </button>
          <button type="button" className={css.toolButton} onClick={() => act(selectedIndex, 'rotateLeft')}>
            {t('selected.rotateLeft')}
          </button>
          <button type="button" className={css.toolButton} onClick={() => act(selectedIndex, 'rotateRight')}>
            {t('selected.rotateRight')}
          </button>
          {selectedElement.type === 'text' && (
            <button
              type="button"
              className={css.toolButton}
              aria-expanded={panel === 'text' && editing === selected}
              aria-controls={panelId}
              onClick={() => {
                if (selected) panelActor.send({ type: 'user.editedText', key: selected });
              }}
            >
              {t('selected.edit')}
            </button>
          )}
          <button type="button" className={css.dangerButton} onClick={() => remove(selectedIndex)}>
            {t('selected.remove')}
          </button>
        </div>
      )}

      <div className={css.toolbar} role="group" aria-label={t('add.label')}>
        {PANELS.map((p) => (
          <button
            key={p}
            ref={(b) => {
              if (b) tools.current.set(p, b);
              else tools.current.delete(p);
            }}
            type="button"
            className={css.toolButton}
            aria-expanded={panel === p && !(p === 'text' && editing)}
            aria-controls={panelId}
            disabled={full}
            onClick={() => toggle(p)}
          >
            {t(`add.${p}`)}
          </button>
        ))}
      </div>

      <div id={panelId}>
        {panel === 'text' && (
          <PanelBox ref={panelRef} title={editing ? t('text.editTitle') : t('text.title')} onClose={close} onEscape={escape}>
            <TextForm
              key={editing ?? 'new'}
              element={editing ? (elements.find((e, i) => elementKey(e, i) === editing) as Extract<ContentElement, { type: 'text' }> | undefined) : undefined}
              disabled={full && !editing}
              onAdd={(value, style) => add({ type: 'text', value, style })}
              onEdit={(value, style) => {
                const index = latest.current.findIndex((e, i) => elementKey(e, i) === editing);
                const el = latest.current[index];
                if (el?.type === 'text') replace(index, { ...el, value, style });
              }}
              onDone={close}
            />
          </PanelBox>
        )}
        {panel === 'emoji' && (
          <PanelBox ref={panelRef} title={t('emoji.title')} onClose={close} onEscape={escape}>
            <EmojiPicker disabled={full} onPick={(value) => add({ type: 'emoji', value })} />
          </PanelBox>
        )}
        {panel === 'sticker' && (
          <PanelBox ref={panelRef} title={t('sticker.title')} onClose={close} onEscape={escape}>
            <ul className={css.grid}>
              {STICKERS.map((id) => (
                <li key={id}>
                  <button type="button" className={css.tile} disabled={full} onClick={() => add({ type: 'sticker', value: id })}>
                    <img className={css.tileImage} src={stickerUrl(id)} alt="" />
                    <span>{t(`sticker.names.${id}`)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </PanelBox>
        )}
        {panel === 'lottie' && (
          <PanelBox ref={panelRef} title={t('lottie.title')} onClose={close} onEscape={escape}>
            <ul className={css.grid}>
              {ANIMATIONS.map((id) => (
                <li key={id}>
                  <button type="button" className={css.tile} disabled={full} onClick={() => add({ type: 'lottie', value: id })}>
                    <LottiePlayer id={id} className={css.tileImage} still />
                    <span>{t(`lottie.names.${id}`)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </PanelBox>
        )}
        {panel === 'picture' && (
          <PanelBox ref={panelRef} title={t('picture.title')} onClose={close} onEscape={escape}>
            <PictureForm disabled={full} onPicture={onPicture} onAdd={(url) => add({ type: 'picture', value: url })} />
          </PanelBox>
        )}
      </div>

      <p role="status" aria-live="polite" className={css.hint}>
        {announcement}
      </p>
      {showKeys && (
        <p id={keysId} className={css.hint}>
          {t('keys', { move: Math.round(KEY_STEPS.move * 100), rotate: KEY_STEPS.rotate })}
        </p>
      )}
    </div>
  );
}

/** A tool's panel: its title, 'Stäng', and Escape anywhere in it closes it. */
function PanelBox({
  ref,
  title,
  onClose,
  onEscape,
  children,
}: {
  ref: Ref<HTMLElement>;
  title: string;
  onClose: () => void;
  onEscape: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('editor');
  const titleId = useId();
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    e.stopPropagation();
    onEscape();
  };
  return (
    <section ref={ref} className={css.panel} aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <div className={css.selectedBar}>
        <h2 id={titleId} className={css.panelTitle} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" className={css.toolButton} onClick={onClose}>
          {t('close')}
        </button>
      </div>
      {children}
    </section>
  );
}

type TextStyle = { font: TextFont; color: TextColor };

/** Writes a new text, or changes the selected one as the person types (an empty text is not sent). */
function TextForm({
  element,
  disabled,
  onAdd,
  onEdit,
  onDone,
}: {
  element: Extract<ContentElement, { type: 'text' }> | undefined;
  disabled: boolean;
  onAdd: (value: string, style: TextStyle) => void;
  onEdit: (value: string, style: TextStyle) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('editor');
  const [value, setValue] = useState(element?.value ?? '');
  const [style, setStyle] = useState<TextStyle>({ font: element?.style?.font ?? DEFAULT_TEXT_FONT, color: element?.style?.color ?? DEFAULT_TEXT_COLOR });
  const [empty, setEmpty] = useState(false);
  const textId = useId();
  const limitId = useId();
  const errorId = useId();

  const change = (nextValue: string, nextStyle: TextStyle) => {
    const limited = limitText(nextValue);
    setValue(limited);
    setStyle(nextStyle);
    if (limited.trim()) setEmpty(false);
    if (element && limited.trim()) onEdit(limited, nextStyle);
  };

  const submit = () => {
    if (!value.trim()) {
      setEmpty(true);
      return;
    }
    if (element) onDone();
    else onAdd(value, style);
  };

  return (
    <form
      className={css.form}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className={css.field}>
        <label htmlFor={textId}>{t('text.label')}</label>
        <textarea
          id={textId}
          className={css.textarea}
          value={value}
          maxLength={MAX_TEXT_LENGTH}
          aria-describedby={`${limitId}${empty ? ` ${errorId}` : ''}`}
          aria-invalid={empty || undefined}
          onChange={(e) => change(e.target.value, style)}
        />
        <p id={limitId} className={css.countLine}>
          <span>{t('text.limit', { max: MAX_TEXT_LENGTH })}</span>
          <span>{t('text.counter', { count: value.length, max: MAX_TEXT_LENGTH })}</span>
        </p>
        {empty && (
          <p id={errorId} className={css.error}>
            {t('text.empty')}
          </p>
        )}
      </div>
      <fieldset className={css.choiceRow}>
        <legend>{t('text.font')}</legend>
        {TEXT_FONTS.map((font) => (
          <label key={font} className={css.choice}>
            <input className={css.choiceInput} type="radio" name="font" checked={style.font === font} onChange={() => change(value, { ...style, font })} />
            <span className={css.fontSample[font]}>{t(`text.fonts.${font}`)}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className={css.choiceRow}>
        <legend>{t('text.color')}</legend>
        {TEXT_COLORS.map((color) => (
          <label key={color} className={css.choice} title={t(`text.colors.${COLOR_KEYS[color]}`)}>
            <input
              className={css.choiceInput}
              type="radio"
              name="color"
              aria-label={t(`text.colors.${COLOR_KEYS[color]}`)}
              checked={style.color === color}
              onChange={() => change(value, { ...style, color })}
            />
            <span className={css.swatch} style={{ background: color }} aria-hidden="true" />
          </label>
        ))}
      </fieldset>
      <div>
        <button type="submit" className={css.toolButton} disabled={disabled}>
          {element ? t('text.done') : t('text.add')}
        </button>
      </div>
    </form>
  );
}

/** Picks an image, checks it against the photo rules, uploads it through `onPicture`. */
function PictureForm({ disabled, onPicture, onAdd }: { disabled: boolean; onPicture: (file: File) => Promise<string>; onAdd: (url: string) => void }) {
  const { t } = useTranslation('editor');
  const [state, setState] = useState<{ status: 'idle' } | { status: 'uploading' } | { status: 'refused'; message: string }>({ status: 'idle' });
  const inputId = useId();
  const hintId = useId();

  const pick = async (file: File | undefined) => {
    if (!file) return;
    // The photo rules the server applies to a picture (contract/media.ts): checked here first.
    if (!isPhotoType(mediaTypeOf(file.type)) && !isPhotoType(mediaTypeOfName(file.name))) {
      setState({ status: 'refused', message: t('picture.wrongType') });
      return;
    }
    if (file.size > PHOTO_MAX_BYTES) {
      setState({ status: 'refused', message: t('picture.tooBig', UPLOAD_LIMITS_MB) });
      return;
    }
    setState({ status: 'uploading' });
    try {
      const url = await onPicture(file);
      setState({ status: 'idle' });
      onAdd(url);
    } catch (err) {
      setState({ status: 'refused', message: t('picture.failed', { reason: err instanceof Error && err.message ? err.message : t('picture.tryAgain') }) });
    }
  };

  return (
    <div className={css.field}>
      <label htmlFor={inputId}>{t('picture.choose')}</label>
      <input
        id={inputId}
        type="file"
        accept={PHOTO_ACCEPT}
        aria-describedby={hintId}
        disabled={disabled || state.status === 'uploading'}
        onChange={(e) => {
          void pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <p id={hintId} className={css.hint}>
        {t('picture.hint', UPLOAD_LIMITS_MB)}
      </p>
      {state.status === 'uploading' && <p role="status">{t('picture.uploading')}</p>}
      {state.status === 'refused' && (
        <p role="alert" className={css.error}>
          {state.message}
        </p>
      )}
    </div>
  );
}
